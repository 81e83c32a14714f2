// An owner's folder tree: the one consistency boundary for moving folders. Every move in a workspace is decided
// on the stream folder-tree-<ownerId> and appended at its expected revision, so two moves that would together
// make a cycle cannot both succeed: the second is decided again on the tree the first left, and refused.
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import type { Decider } from "../kernel/decider.ts";
import { folderIdSchema, userIdSchema, type FolderId, type UserId } from "../kernel/ids.ts";

export const folderTreeEventSchemas = [
  z.object({
    type: z.literal("FolderMoved"),
    data: z.object({ folderId: folderIdSchema, ownerId: userIdSchema, parentId: folderIdSchema.nullable() }),
  }),
] as const;
export type FolderTreeEvent = z.infer<(typeof folderTreeEventSchemas)[number]>;

export interface MoveFolder {
  readonly type: "MoveFolder";
  readonly folderId: FolderId;
  readonly ownerId: UserId;
  readonly parentId: FolderId | null;
  /**
   * The parent each folder was created in, for the folders on the way from the destination to the root and the
   * moved folder itself (fixed facts of their own streams); where the tree moved a folder since, the tree's
   * state wins.
   */
  readonly createdParents: ReadonlyMap<string, string | null>;
}

/** Folders the tree moved, and where to (their latest parent). */
export type FolderTreeState = { readonly movedParents: ReadonlyMap<string, string | null> };

export const folderTreeStream = (ownerId: string): string => `folder-tree-${ownerId}`;

/** A folder's current parent: the tree's last move of it, else where it was created; undefined if unknown. */
export function currentParent(
  state: FolderTreeState,
  createdParents: ReadonlyMap<string, string | null>,
  folderId: string,
): string | null | undefined {
  return state.movedParents.has(folderId) ? state.movedParents.get(folderId) : createdParents.get(folderId);
}

export const folderTreeDecider: Decider<MoveFolder, FolderTreeState, FolderTreeEvent> = {
  initialState: { movedParents: new Map() },
  decide(command, state) {
    const { folderId, ownerId, parentId, createdParents } = command;
    if (currentParent(state, createdParents, folderId) === parentId) return [];
    const seen = new Set<string>();
    for (let at: string | null | undefined = parentId; at !== null; at = currentParent(state, createdParents, at)) {
      if (at === undefined || seen.has(at))
        throw new AppError("conflict", "the folder tree changed while moving; try again");
      if (at === folderId) throw new AppError("conflict", "a folder cannot be moved into itself or a folder inside it");
      seen.add(at);
    }
    return [{ type: "FolderMoved", data: { folderId, ownerId, parentId } }];
  },
  evolve(state, event) {
    const movedParents = new Map(state.movedParents);
    movedParents.set(event.data.folderId, event.data.parentId);
    return { movedParents };
  },
};
