// Responses are written by fast-json-stringify from the JSON Schema of each route's zod response schema: only
// declared fields reach the client (nothing internal leaks), at a fraction of the cost of re-validating with zod.
import fastJson from "fast-json-stringify";
import type { FastifySerializerCompiler } from "fastify/types/schema.js";
import { z } from "zod";

export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema }) => {
  if (!(schema instanceof z.ZodType)) return (data) => JSON.stringify(data);
  const jsonSchema = z.toJSONSchema(schema, { target: "draft-7", unrepresentable: "any", io: "output" });
  const stringify = fastJson(jsonSchema as Parameters<typeof fastJson>[0]);
  return (data) => stringify(data);
};
