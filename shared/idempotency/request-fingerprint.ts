// What identifies a request under an Idempotency-Key: its method, its path with the parameters filled in, and
// its body as canonical JSON, so that the same body with its keys in another order is the same request.
import { createHash } from "node:crypto";

export interface FingerprintedRequest {
  readonly method: string;
  /** The path as requested, parameters included (`/pages/3f1c…/comments`), not the route's pattern. */
  readonly path: string;
  readonly body: unknown;
}

/** A SHA-256 rather than the request itself: a body may hold what must not be kept (docs/architecture.md). */
export function requestFingerprint(request: FingerprintedRequest): string {
  return createHash("sha256").update(canonicalJson([request.method.toUpperCase(), request.path, request.body ?? null])).digest("hex");
}

/** JSON with every object's keys sorted; values go through JSON.stringify first, so `toJSON` and dropped `undefined` members behave as on the wire. */
export function canonicalJson(value: unknown): string {
  const wire = JSON.stringify(value);
  if (wire === undefined) return "null";
  const parsed: unknown = JSON.parse(wire);
  return write(parsed);
}

function write(value: unknown): string {
  if (Array.isArray(value)) {
    const items: unknown[] = value;
    return `[${items.map(write).join(",")}]`;
  }
  if (value !== null && typeof value === "object") {
    const members: Array<[string, unknown]> = Object.entries(value);
    members.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${members.map(([key, member]) => `${JSON.stringify(key)}:${write(member)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
