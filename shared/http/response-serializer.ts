// Responses are written by fast-json-stringify from the JSON Schema of each route's zod response schema: only
// declared fields reach the client (nothing internal leaks), at a fraction of the cost of re-validating with zod.
import fastJson from "fast-json-stringify";
import type { FastifySerializerCompiler } from "fastify/types/schema.js";
import { z } from "zod";

/** `propertyNames` (from z.record) only constrains input; fast-json-stringify's compiler rejects it. */
function withoutPropertyNames(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutPropertyNames);
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== "propertyNames")
      .map(([key, value]) => [key, withoutPropertyNames(value)]),
  );
}

export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema }) => {
  if (!(schema instanceof z.ZodType)) return (data) => JSON.stringify(data);
  const jsonSchema = withoutPropertyNames(z.toJSONSchema(schema, { target: "draft-7", unrepresentable: "any", io: "output" }));
  const stringify = fastJson(jsonSchema as Parameters<typeof fastJson>[0]);
  return (data) => stringify(data);
};
