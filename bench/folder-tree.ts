// The folder tree the benchmarks seed for an owner: three top-level folders, each the root of a tree four
// levels deep that branches in two below the top (45 folders), named by where they stand.
import { randomUUID } from "node:crypto";
import type { DomainEvent } from "../shared/events.ts";
import { folderIdSchema, type FolderId, type UserId } from "../shared/kernel/ids.ts";

export interface SeededFolder {
  readonly folderId: FolderId;
  /** Which of the three top-level trees it is in, and how deep (0: the top-level folder itself). */
  readonly top: number;
  readonly depth: number;
}

/** Appends each folder's FolderCreated (parents first) through `append`; the folders in that order. */
export async function appendFolderTree(
  ownerId: UserId,
  append: (folderId: FolderId, event: DomainEvent) => Promise<unknown>,
): Promise<SeededFolder[]> {
  const folders: SeededFolder[] = [];
  for (let top = 0; top < 3; top += 1) {
    let parents: Array<FolderId | null> = [null];
    for (let depth = 0; depth < 4; depth += 1) {
      const level: FolderId[] = [];
      for (const parentId of parents) {
        for (let branch = 0; branch < (depth === 0 ? 1 : 2); branch += 1) {
          const folderId = folderIdSchema.parse(randomUUID());
          await append(folderId, {
            type: "FolderCreated",
            data: { folderId, ownerId, parentId, name: `Area ${top}.${depth}.${branch}`, icon: null },
          });
          level.push(folderId);
          folders.push({ folderId, top, depth });
        }
      }
      parents = level;
    }
  }
  return folders;
}
