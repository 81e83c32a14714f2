// Visibility as one multikey field: every page and folder document lists the keys through which it can be
// seen (its owner's workspace, itself, each folder above it), and a caller's VisibleTo becomes one `$in` over
// the same keys. With an index on (accessKeys, updatedPosition) a listing across any number of grants is a
// single indexed query: MongoDB scans each key's range newest first and merges them.
import type { VisibleTo } from "../../read-store/list-query.ts";

export function accessKeysOf(
  kind: "page" | "folder",
  item: { readonly id: string; readonly ownerId: string; readonly ancestorIds: readonly string[] },
): string[] {
  return [`o:${item.ownerId}`, `${kind === "page" ? "p" : "f"}:${item.id}`, ...item.ancestorIds.map((id) => `f:${id}`)];
}

export function visibleKeys(visibleTo: VisibleTo): string[] {
  return [
    ...visibleTo.ownerIds.map((id) => `o:${id}`),
    ...visibleTo.pageIds.map((id) => `p:${id}`),
    ...visibleTo.folderIds.map((id) => `f:${id}`),
  ];
}
