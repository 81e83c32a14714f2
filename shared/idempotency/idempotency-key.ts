// The Idempotency-Key header's syntax, and the hash that scopes a key to its caller and names its stream.
import { createHash } from "node:crypto";
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import type { UserId } from "../kernel/ids.ts";

/** 1 to 255 visible ASCII characters (0x21–0x7E): no spaces, no control characters, nothing outside ASCII. */
const idempotencyKeySchema = z.string().regex(/^[\x21-\x7e]{1,255}$/);

export function parseIdempotencyKey(value: unknown): string {
  const parsed = idempotencyKeySchema.safeParse(value);
  if (!parsed.success)
    throw new AppError("validation_failed", "Idempotency-Key header: must be 1 to 255 visible ASCII characters");
  return parsed.data;
}

/**
 * Two callers who pick the same key never meet, and the key itself (which a client may derive from anything)
 * is neither stored nor used as a stream name: only this hash is.
 */
export function idempotencyKeyHash(callerId: UserId, key: string): string {
  return createHash("sha256")
    .update(JSON.stringify([callerId, key]))
    .digest("hex");
}
