// Opaque list cursors: keyset pagination on (position, id), a total order, so walking a list while others
// write never repeats an item and never skips one that was not changed during the walk, even where many items
// share one position (every page below a moved folder).
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import type { ListKey } from "./list-query.ts";

/** `i` is absent from cursors issued before ids broke ties; "" then resumes strictly below the position, as they did. */
const cursorSchema = z.object({ p: z.number().int().nonnegative(), i: z.string().max(200).default("") });

function encodeListCursor(key: ListKey): string {
  return Buffer.from(JSON.stringify({ p: key.position, i: key.id })).toString("base64url");
}

export function decodeListCursor(cursor: string | undefined): ListKey | null {
  if (cursor === undefined) return null;
  try {
    const { p, i } = cursorSchema.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
    return { position: p, id: i };
  } catch {
    throw new AppError("validation_failed", "cursor: not a cursor returned by this API");
  }
}

/** A cursor over a list whose positions are unique (a page's history: one entry per event). */
export function encodeCursor(position: number): string {
  return encodeListCursor({ position, id: "" });
}

export function decodeCursor(cursor: string | undefined): number | null {
  return decodeListCursor(cursor)?.position ?? null;
}

export interface Page<T> {
  readonly data: T[];
  readonly nextCursor: string | null;
}

/** Rows fetched with limit + 1 tell whether another page follows. */
export function pageOf<T>(
  rows: T[],
  limit: number,
  keyOf: (row: T) => ListKey,
): { rows: T[]; nextCursor: string | null } {
  if (rows.length <= limit) return { rows, nextCursor: null };
  const kept = rows.slice(0, limit);
  const last = kept[kept.length - 1];
  return { rows: kept, nextCursor: last === undefined ? null : encodeListCursor(keyOf(last)) };
}
