// Lists in MongoDB follow the same total order as everywhere: newest updatedPosition first, then _id, so the
// pages sharing a folder move's position are paged through one by one rather than skipped at a boundary.
import type { Filter } from "mongodb";
import type { ListKey } from "../../read-store/list-query.ts";

export const NEWEST_FIRST = { updatedPosition: -1, _id: -1 } as const;

type Listed = { _id: string; updatedPosition: number };

/**
 * `base` restricted to the items after `before`, as a rooted `$or` (each branch a full predicate): MongoDB
 * plans each branch on the (…, updatedPosition, _id) index and merges them in sort order, where a `$or`
 * nested beside other predicates would be filtered after the scan instead of bounding it.
 */
export function after<T extends Listed>(base: Filter<T>, before: ListKey | null): Filter<T> {
  if (before === null) return base;
  const older: Filter<Listed> = { updatedPosition: { $lt: before.position } };
  const tiedBelow: Filter<Listed> = { updatedPosition: before.position, _id: { $lt: before.id } };
  // The driver's Filter type cannot see that T's updatedPosition and _id are these fields.
  return {
    $or: [
      { ...base, ...older },
      { ...base, ...tiedBelow },
    ],
  } as Filter<T>;
}
