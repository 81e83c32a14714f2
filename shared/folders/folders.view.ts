// Read model of folders: tree position (ancestors, path) for inheritance and folderPath, listed by recency.
import type { ListQuery } from "../read-store/list-query.ts";

export interface FolderRecord {
  readonly id: string;
  readonly ownerId: string;
  readonly parentId: string | null;
  readonly name: string;
  readonly icon: string | null;
  /** Folders above this one, nearest first. */
  readonly ancestorIds: string[];
  /** Names from the root down to this folder, joined by "/". */
  readonly path: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly updatedPosition: number;
}

export interface FoldersView {
  get(id: string): Promise<FolderRecord | null>;
  list(query: ListQuery): Promise<FolderRecord[]>;
}

export interface FoldersWriter<Tx> {
  put(tx: Tx, folder: FolderRecord): Promise<void>;
  /** A folder as the batch sees it: pages and folders created inside it take its ancestors and path. */
  get(tx: Tx, id: string): Promise<FolderRecord | null>;
}
