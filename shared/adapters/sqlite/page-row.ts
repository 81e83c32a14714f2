// A page's listing row in SQLite, as better-sqlite3 returns it, and its mapping to the record: what the pages
// view and the search both read.
import type { PageRecord } from "../../pages/page-record.ts";
import { decodeIds } from "./id-list.ts";

export type PageRow = {
  id: string;
  owner_id: string;
  parent_id: string | null;
  title: string;
  icon: string | null;
  ancestor_ids: string;
  folder_path: string;
  created_at: string;
  updated_at: string;
  updated_pos: number;
  revision: number;
};
export const toPageRecord = (row: PageRow): PageRecord => ({
  id: row.id,
  ownerId: row.owner_id,
  parentId: row.parent_id,
  title: row.title,
  icon: row.icon,
  ancestorIds: decodeIds(row.ancestor_ids),
  folderPath: row.folder_path,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  updatedPosition: row.updated_pos,
  revision: row.revision,
});
