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
  /** Visible folders, newest changed first; with `parentId`, only those directly inside that folder. */
  list(query: ListQuery & { parentId?: string }): Promise<FolderRecord[]>;
  /** Whether no live page and no folder sits directly inside the folder, whoever can see them. */
  isEmpty(id: string): Promise<boolean>;
  /** Everything below the folder at any depth, whoever can see it: its folders and its live pages' ids. */
  below(id: string): Promise<{ folders: FolderRecord[]; pageIds: string[] }>;
}

/** When and at which position an item last changed: what lists order by. */
export interface Changed {
  readonly updatedAt: string;
  readonly updatedPosition: number;
}

/** Where a folder now sits, as its descendants need it: the folder, its ancestors (nearest first), its path. */
export interface FolderPlace {
  readonly id: string;
  readonly ancestorIds: readonly string[];
  readonly path: string;
}

export interface FoldersWriter<Tx> {
  put(tx: Tx, folder: FolderRecord): Promise<void>;
  /** A folder as the batch sees it: pages and folders created inside it take its ancestors and path. */
  get(tx: Tx, id: string): Promise<FolderRecord | null>;
  /**
   * Writes the folder's new record (renamed or moved) and rewrites the ancestors and path of every folder below
   * it to follow; with `descendantsChanged` (a move: their inherited access may differ) they count as changed
   * at that position too.
   */
  place(tx: Tx, folder: FolderRecord, descendantsChanged: Changed | null): Promise<void>;
  remove(tx: Tx, id: string): Promise<void>;
}
