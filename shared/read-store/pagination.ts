// Opaque list cursors: keyset pagination on a strictly increasing position, so walking a list while others
// write never repeats an item and never skips one that was not changed during the walk.
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";

const cursorSchema = z.object({ p: z.number().int().nonnegative() });

export function encodeCursor(position: number): string {
  return Buffer.from(JSON.stringify({ p: position })).toString("base64url");
}

export function decodeCursor(cursor: string | undefined): number | null {
  if (cursor === undefined) return null;
  try {
    return cursorSchema.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"))).p;
  } catch {
    throw new AppError("validation_failed", "cursor: not a cursor returned by this API");
  }
}

export interface Page<T> {
  readonly data: T[];
  readonly nextCursor: string | null;
}

/** Rows fetched with limit + 1 tell whether another page follows. */
export function pageOf<T>(rows: T[], limit: number, positionOf: (row: T) => number): { rows: T[]; nextCursor: string | null } {
  if (rows.length <= limit) return { rows, nextCursor: null };
  const kept = rows.slice(0, limit);
  const last = kept[kept.length - 1];
  return { rows: kept, nextCursor: last === undefined ? null : encodeCursor(positionOf(last)) };
}
