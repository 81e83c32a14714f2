// Ids an import derives from its scope (a keyed hash of the caller and the Idempotency-Key) and a file's path,
// so that a retry of a failed import with the same key finds what the first attempt created and does not create
// it twice. The scope is keyed so that an id in the log confirms no guessed note path to whoever lacks the
// key-encryption key: the caller's id is in the log, and a key may be guessable.
import { createHash } from "node:crypto";

/**
 * What an import with an Idempotency-Key derives its ids from: `keyed`, and `legacy`, the caller and the key in
 * the clear, as imports derived them before scopes were keyed (a retry of such an import finds its ids by it).
 */
export interface ImportScopes {
  readonly keyed: string;
  readonly legacy: string | null;
}

/** `keyedHash`: the key-encryption key's importScopeHash. */
export function importScopes(keyedHash: (scope: string) => string, callerId: string, idempotencyKey: string): ImportScopes {
  const legacy = `${callerId}\n${idempotencyKey}`;
  return { keyed: `k1.${keyedHash(legacy)}`, legacy };
}

/** A UUID of version 8 (RFC 9562: custom) from the SHA-256 of its inputs. */
export function derivedId(scope: string, kind: string, name: string): string {
  const hex = createHash("sha256").update(`${scope}\n${kind}\n${name}`).digest("hex");
  const variant = ((Number.parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
