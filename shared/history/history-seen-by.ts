// History as one caller may be told it: a folder a change names (where an entity was created, moved from or to,
// brought back into) that the caller cannot view is shown as null, the root, exactly as seenBy places records.
// The stored summary keeps the real id; this shaping happens per reader, after the entries are described once.
// Pure: the folders' standings are loaded once per distinct id by the caller of these functions.
import { effectivePermission } from "../access/effective-permission.ts";
import type { AccessContext } from "../access/access-context.ts";
import type { DescribedEntry } from "./describe-history.ts";
import type { Change } from "./change-summary.ts";

/** What decides whether a caller can view a folder a change names: where it stands now. */
export interface FolderStanding {
  readonly ownerId: string;
  /** Folders above it, nearest first (none for a folder in the trash: it is judged by its workspace alone). */
  readonly ancestorIds: readonly string[];
  /**
   * In the trash: visible to those who see its owner's trash (the owner and the workspace's members), since a
   * grant on it or above no longer shows it anywhere.
   */
  readonly inTrash: boolean;
}

/** The folder ids the described changes name, each once. */
export function foldersNamedBy(entries: readonly DescribedEntry[]): string[] {
  const ids = new Set<string>();
  for (const { changes } of entries) {
    for (const id of folderIdsOf(changes)) if (id !== null) ids.add(id);
  }
  return [...ids];
}

function folderIdsOf(change: Change): (string | null)[] {
  switch (change.kind) {
    case "created":
    case "undeleted":
      return [change.parentId];
    case "moved":
      return [change.from, change.to];
    default:
      return [];
  }
}

function canView(context: AccessContext, id: string, standing: FolderStanding): boolean {
  if (standing.inTrash) return standing.ownerId === context.userId || context.workspaceRoles.has(standing.ownerId);
  return (
    effectivePermission(context, {
      kind: "folder",
      id,
      ownerId: standing.ownerId,
      ancestorIds: standing.ancestorIds,
    }) !== null
  );
}

/**
 * The entries as the caller may see them. `standings` holds every folder they name; one missing from it (or
 * null: purged, never existed) is hidden, as it answers 404 to everyone. Entries naming no hidden folder are
 * returned as they are.
 */
export function entriesSeenBy(
  context: AccessContext,
  entries: readonly DescribedEntry[],
  standings: ReadonlyMap<string, FolderStanding | null>,
): DescribedEntry[] {
  const verdicts = new Map<string, boolean>();
  const shown = (id: string | null): string | null => {
    if (id === null) return null;
    let visible = verdicts.get(id);
    if (visible === undefined) {
      const standing = standings.get(id);
      visible = standing ? canView(context, id, standing) : false;
      verdicts.set(id, visible);
    }
    return visible ? id : null;
  };
  return entries.map((described) => {
    const { changes } = described;
    let seen: Change = changes;
    if (changes.kind === "created" || changes.kind === "undeleted") {
      const parentId = shown(changes.parentId);
      if (parentId !== changes.parentId) seen = { ...changes, parentId };
    } else if (changes.kind === "moved") {
      const from = shown(changes.from);
      const to = shown(changes.to);
      if (from !== changes.from || to !== changes.to) seen = { ...changes, from, to };
    }
    return seen === changes ? described : { ...described, changes: seen };
  });
}
