// Responses are written by fast-json-stringify from the JSON Schema of each route's zod response schema: only
// declared fields reach the client (nothing internal leaks), at a fraction of the cost of re-validating with zod.
import fastJson from "fast-json-stringify";
import type { FastifySerializerCompiler } from "fastify/types/schema.js";
import { z } from "zod";
import { isList } from "./api-schema-shapes.ts";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Adapts zod's JSON Schema to what fast-json-stringify writes fastest: `propertyNames` (from z.record) only
 * constrains input and its compiler rejects it; a nullable scalar (`anyOf: [{type: T}, {type: "null"}]`)
 * becomes `type: [T, "null"]`, which it writes without trying each branch.
 */
function forFastJson(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forFastJson);
  if (!isRecord(node)) return node;
  const branches = node.anyOf;
  if (isList(branches) && branches.length === 2) {
    const [first, second] = branches;
    const scalar = [first, second].find(
      (b) =>
        isRecord(b) && typeof b.type === "string" && b.type !== "null" && b.type !== "object" && b.type !== "array",
    );
    const nullBranch = [first, second].find((b) => isRecord(b) && b.type === "null");
    if (isRecord(scalar) && nullBranch) {
      const { anyOf: _anyOf, ...rest } = node;
      return forFastJson({ ...rest, ...scalar, type: [scalar.type, "null"] });
    }
  }
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== "propertyNames")
      .map(([key, value]) => [key, forFastJson(value)]),
  );
}

export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema }) => {
  if (!(schema instanceof z.ZodType)) return (data) => JSON.stringify(data);
  const jsonSchema = forFastJson(z.toJSONSchema(schema, { target: "draft-7", unrepresentable: "any", io: "output" }));
  const stringify = fastJson(jsonSchema as Parameters<typeof fastJson>[0]);
  return (data) => stringify(data);
};
