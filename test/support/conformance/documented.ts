// What the API reference documents of each operation, as the probes read it: its statuses, who may call it, the
// body it takes and the headers it reads; and the request that reaches an operation with nothing in it found (a
// fresh UUID for every id, a valid value for everything else the document requires).
import type { Operation } from "openapi-backend";
import type { ResponseConformance } from "../openapi-conformance.ts";

export interface DocumentedOperation {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  /** The documented response keys: `200`, `409`, `5XX`. */
  readonly statuses: readonly string[];
  /** The scope a token needs, when the operation names one. */
  readonly scope: string | null;
  readonly secured: boolean;
  readonly sessionOnly: boolean;
  /** The media types its request body may have (none: it takes no body). */
  readonly consumes: readonly string[];
  /** The example of its JSON body, when the document shows one. */
  readonly example: unknown;
  /** The request headers it reads: `If-Match`, `Idempotency-Key`, `X-Consistency-Token`, … */
  readonly headers: readonly string[];
  /** Its required query parameters. */
  readonly query: readonly string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

function parametersOf(operation: Operation, where: "header" | "query", requiredOnly: boolean): string[] {
  const parameters: unknown[] = Array.isArray(operation.parameters) ? operation.parameters : [];
  return parameters
    .filter(isRecord)
    .filter((parameter) => parameter.in === where && (!requiredOnly || parameter.required === true))
    .map((parameter) => String(parameter.name));
}

export function documentedOperations(conformance: ResponseConformance): DocumentedOperation[] {
  return conformance.operations().map((operation) => {
    const security = operation.security ?? [];
    const bearer = security.find((requirement) => "bearerToken" in requirement)?.bearerToken ?? null;
    // The scope an operation needs is listed under the OAuth 2 scheme; an API token needs the same.
    const oauth = security.find((requirement) => "oauth2" in requirement)?.oauth2 ?? null;
    const content = operation.requestBody && "content" in operation.requestBody ? operation.requestBody.content : {};
    const json = content["application/json"];
    return {
      operationId: operation.operationId ?? "",
      method: operation.method.toUpperCase(),
      path: operation.path,
      statuses: Object.keys(operation.responses ?? {}),
      scope: oauth?.[0] ?? null,
      secured: security.length > 0,
      sessionOnly: security.length > 0 && bearer === null,
      consumes: Object.keys(content),
      example: json && "example" in json ? json.example : undefined,
      headers: parametersOf(operation, "header", false),
      query: parametersOf(operation, "query", true),
    };
  });
}

/** Values for the required query parameters the document names: a search, a title, an instant. */
const QUERY_VALUES: Record<string, string> = { q: "words", title: "Plan", from: "1" };

/**
 * A path with its parameters filled: `ids` for the named ones, a fresh UUID (so nothing is found) for the other
 * ids, a valid value for the rest; and the required query parameters.
 */
export function filled(
  operation: Pick<DocumentedOperation, "path" | "query">,
  ids: Record<string, string> = {},
): string {
  const path = operation.path.replace(/\{([A-Za-z]+)\}/g, (_match, name: string) => {
    const given = ids[name];
    if (given !== undefined) return given;
    if (name === "entityType" || name === "type") return "page";
    if (name === "email") return "nobody@example.com";
    if (name === "secret") return "not-a-link";
    return crypto.randomUUID();
  });
  const query = operation.query.map((name) => `${name}=${encodeURIComponent(QUERY_VALUES[name] ?? "x")}`);
  return query.length > 0 ? `${path}?${query.join("&")}` : path;
}

/** The example body of an operation that takes JSON (`{}` when it shows none), or nothing. */
export const exampleBody = (operation: DocumentedOperation): { json?: unknown } =>
  operation.consumes.includes("application/json") ? { json: operation.example ?? {} } : {};

export const documents = (operation: DocumentedOperation, status: string): boolean =>
  operation.statuses.includes(status);
