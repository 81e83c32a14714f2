// Ids an import derives from its scope and a file's path. The scope is the vault's place: the workspace owner and
// the target folder (or the root), so that importing a vault again into the same place finds the pages, images
// and attachments it made before and updates them instead of making them twice, and a retry of a failed import
// finds what the first attempt made. The scope is keyed so that an id in the log confirms no guessed note path to
// whoever lacks the key-encryption key: the owner's and folder's ids are in the log.
import { createHash } from "node:crypto";

/**
 * What an import derives its ids from: `vault`, and the scopes imports with the same Idempotency-Key derived
 * them from before they derived them from the vault's place (`earlier`: keyed by the key, then the caller and the
 * key in the clear), so that a retry of such an import finds what its first attempt made.
 */
export interface ImportScopes {
  readonly vault: string;
  readonly earlier: readonly string[];
}

/** `keyedHash`: the key-encryption key's importScopeHash; `folderId` null for the owner's root. */
export function importScopes(
  keyedHash: (scope: string) => string,
  place: { ownerId: string; folderId: string | null },
  retry: { callerId: string; idempotencyKey: string } | null,
): ImportScopes {
  const vault = `v1.${keyedHash(`vault\n${place.ownerId}\n${place.folderId ?? "root"}`)}`;
  if (retry === null) return { vault, earlier: [] };
  const legacy = `${retry.callerId}\n${retry.idempotencyKey}`;
  return { vault, earlier: [`k1.${keyedHash(legacy)}`, legacy] };
}

/** A UUID of version 8 (RFC 9562: custom) from the SHA-256 of its inputs. */
export function derivedId(scope: string, kind: string, name: string): string {
  const hex = createHash("sha256").update(`${scope}\n${kind}\n${name}`).digest("hex");
  const variant = ((Number.parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
