// Random bytes for IVs, key ids and key material, drawn from the system's random source in blocks rather than
// one call a value: the same random bytes at a fraction of the calls (each call costs about a microsecond,
// several times the cost of copying the bytes out of a block).
import { randomBytes } from "node:crypto";

const BLOCK = 64 * 1024;
let block = Buffer.alloc(0);
let offset = 0;

/** `length` fresh random bytes (at most a block), in a buffer of their own. */
export function pooledRandomBytes(length: number): Buffer {
  if (length > BLOCK) return randomBytes(length);
  if (offset + length > block.length) {
    block = randomBytes(BLOCK);
    offset = 0;
  }
  const bytes = Buffer.from(block.subarray(offset, offset + length));
  // Bytes once handed out are never handed out again.
  block.fill(0, offset, offset + length);
  offset += length;
  return bytes;
}
