// Ids an import derives from its scope (the caller and the Idempotency-Key) and a file's path, so that a retry
// of a failed import with the same key finds what the first attempt created and does not create it twice.
import { createHash } from "node:crypto";

/** A UUID of version 8 (RFC 9562: custom) from the SHA-256 of its inputs. */
export function derivedId(scope: string, kind: string, name: string): string {
  const hex = createHash("sha256").update(`${scope}\n${kind}\n${name}`).digest("hex");
  const variant = ((Number.parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
