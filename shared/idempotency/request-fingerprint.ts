// What identifies a request under an Idempotency-Key: its method, its path with the parameters filled in, and
// its body as canonical JSON, so that the same body with its keys in another order is the same request. The
// fingerprint recorded is a keyed hash of that (HMAC-SHA256 under a key derived from the key-encryption key): a
// body may name an address (a share's invitee), which a plain hash in the log would let a guess confirm.
import { createHash } from "node:crypto";

export interface FingerprintedRequest {
  readonly method: string;
  /** The path as requested, parameters included (`/pages/3f1c…/comments`), not the route's pattern. */
  readonly path: string;
  readonly body: unknown;
}

/** Marks a keyed fingerprint; a bare 64-digit one was recorded before fingerprints were keyed. */
const KEYED = "k1.";

const canonicalRequest = (request: FingerprintedRequest): string =>
  canonicalJson([request.method.toUpperCase(), request.path, request.body ?? null]);

/**
 * A keyed hash rather than the request itself: a body may hold what must not be kept (docs/operations/erasure.md, "What stays linkable"),
 * nor be confirmable by a guess. `keyed`: the key-encryption key's fingerprintHash.
 */
export function requestFingerprint(request: FingerprintedRequest, keyed: (canonical: string) => string): string {
  return `${KEYED}${keyed(canonicalRequest(request))}`;
}

/**
 * The fingerprint as it was recorded before fingerprints were keyed (a plain SHA-256): a retry of a request
 * whose key was claimed then still matches it, for as long as that answer replays (24 hours).
 */
export function unkeyedRequestFingerprint(request: FingerprintedRequest): string {
  return createHash("sha256").update(canonicalRequest(request)).digest("hex");
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
