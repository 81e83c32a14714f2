// Global positions as clients and other processes see them: an opaque decimal string of an unsigned 64-bit
// value (EventStoreDB's commit positions are byte offsets, ordered but not dense). Inside, a position is a
// number; one beyond Number.MAX_SAFE_INTEGER is valid as a token but lies beyond any log this service keeps.
import { z } from "zod";

/** The header a write answers with and a read may send back to wait for it. */
export const CONSISTENCY_HEADER = "x-consistency-token";

const U64_MAX = 18_446_744_073_709_551_615n;

export const positionTokenSchema = z
  .string()
  .regex(/^(0|[1-9]\d{0,19})$/, "must be a decimal position from an earlier response")
  .refine((value) => !/^\d+$/.test(value) || BigInt(value) <= U64_MAX, "must be an unsigned 64-bit value");

/** The position a token names, or Infinity when it lies beyond what a number holds exactly. */
export function positionOfToken(token: string): number {
  const value = BigInt(positionTokenSchema.parse(token));
  return value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.POSITIVE_INFINITY : Number(value);
}

export const tokenOfPosition = (position: number): string => String(position);
