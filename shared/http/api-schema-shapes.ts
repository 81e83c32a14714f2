// The shapes of the OpenAPI document's pieces that the reference builds from the routes: media types of bodies and
// answers that are not JSON, multipart part encodings, and the named schemas kept in the document.

export type JsonSchema = Record<string, unknown>;

export const isRecord = (value: unknown): value is JsonSchema =>
  value !== null && typeof value === "object" && !Array.isArray(value);
/** Array.isArray, but the items stay unknown instead of any. */
export const isList = (value: unknown): value is readonly unknown[] => Array.isArray(value);

/** A request body that is not JSON: text, or bytes of a type (a zip). */
export const bodyOf = (type: string): JsonSchema =>
  type.startsWith("text/") ? { type: "string" } : { type: "string", contentMediaType: type };

/** The object (or named schema) a JSON answer's schema is, or holds among its alternatives; null when none. */
export function objectMemberOf(schema: unknown): JsonSchema | null {
  if (!isRecord(schema)) return null;
  if (schema.type === "object" || typeof schema.$ref === "string") return schema;
  const members = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : [];
  const found: unknown = members.find(
    (member: unknown) => isRecord(member) && (member.type === "object" || typeof member.$ref === "string"),
  );
  return isRecord(found) ? found : null;
}

/**
 * Media types for a success answer that is not JSON: text as a string; bytes (any other type, and "any type" on
 * a route that answers a file as it is) marked with their media type, so that a generated client tells the text
 * it reads as a string from the bytes it reads as a Blob.
 */
export function mediaOf(types: readonly string[]): JsonSchema {
  return Object.fromEntries(types.map((type) => [type, { schema: bodyOf(type) }]));
}

/**
 * The named schemas, less the request-side twins (`PageInput`) that fastify-type-provider-zod makes of every
 * named schema and no request body refers to.
 */
export function withoutUnusedInputs(document: JsonSchema, schemas: JsonSchema): JsonSchema {
  const text = JSON.stringify({
    ...document,
    components: { ...(isRecord(document.components) ? document.components : {}), schemas: {} },
  });
  const used = (name: string) => text.includes(`"#/components/schemas/${name}"`);
  return Object.fromEntries(
    Object.entries(schemas)
      .filter(([name]) => !(name.endsWith("Input") && name.slice(0, -"Input".length) in schemas && !used(name)))
      // The dialect is the document's (jsonSchemaDialect) and the name is the component's key: a `$id` of a
      // fragment is not a valid schema id, and `$schema` inside a component is noise.
      .map(([name, schema]) => [name, isRecord(schema) ? withoutKeys(schema, ["$id", "$schema"]) : schema]),
  );
}

const withoutKeys = (schema: JsonSchema, keys: readonly string[]): JsonSchema =>
  Object.fromEntries(Object.entries(schema).filter(([key]) => !keys.includes(key)));

/**
 * A multipart body's binary parts: `format: binary` (a generated client types it as a Blob: see the client's
 * generator) with the media types each takes, so a client sends the bytes as a file part.
 */
export function withPartEncodings(content: JsonSchema, accepted: Record<string, string>): JsonSchema {
  const form = content["multipart/form-data"];
  if (!isRecord(form)) return content;
  return {
    ...content,
    "multipart/form-data": {
      ...form,
      encoding: Object.fromEntries(Object.entries(accepted).map(([part, contentType]) => [part, { contentType }])),
    },
  };
}
