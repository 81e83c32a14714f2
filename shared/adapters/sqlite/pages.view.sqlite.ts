import type Database from "better-sqlite3";
import { decodeIds, encodeIds } from "./id-list.ts";
import { LIST_START, type ListKey, type VisibleTo } from "../../read-store/list-query.ts";
import {
  newestOfSources,
  type FirstRound,
  type Ranked,
  type RankedSource,
} from "../../read-store/newest-of-sources.ts";
import type { Changed, FolderPlace } from "../../folders/folders.view.ts";
import {
  titleKey,
  type PageContent,
  type PageListQuery,
  type PagesView,
  type PagesWriter,
} from "../../pages/pages.view.ts";
import { samePlace, type PageRecord } from "../../pages/page-record.ts";
import { toPageRecord, type PageRow } from "./page-row.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";
import { reRooted } from "../../folders/folder-place.ts";
import { SqlitePageIndexer, SqlitePageSearch } from "./page-search.sqlite.ts";
import type { SearchRanking } from "./page-search-rank.ts";
import type { SearchHit, SearchQuery } from "../../pages/page-search.ts";
import { FILLED, LISTED_FOR_USER, type SqlitePageAudience } from "./page-audience.sqlite.ts";

const schema = `
CREATE TABLE IF NOT EXISTS pages (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  parent_id TEXT,
  title TEXT NOT NULL,
  title_key TEXT NOT NULL,
  icon TEXT,
  ancestor_ids TEXT NOT NULL,
  folder_path TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_pos INTEGER NOT NULL,
  revision INTEGER NOT NULL,
  deleted INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS pages_parent ON pages (parent_id, updated_pos, id) WHERE deleted = 0;
CREATE INDEX IF NOT EXISTS pages_title ON pages (title_key, updated_pos) WHERE deleted = 0;
CREATE INDEX IF NOT EXISTS pages_owner ON pages (owner_id, updated_pos, id) WHERE deleted = 0;
CREATE TABLE IF NOT EXISTS page_ancestors (
  page_id TEXT NOT NULL,
  folder_id TEXT NOT NULL,
  updated_pos INTEGER NOT NULL,
  PRIMARY KEY (page_id, folder_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS page_ancestors_folder ON page_ancestors (folder_id, updated_pos, page_id);
CREATE TABLE IF NOT EXISTS page_contents (
  page_id TEXT PRIMARY KEY,
  markdown TEXT NOT NULL
);`;
export const pagesModel: SqliteModel = {
  schema,
  tables: ["pages", "page_ancestors", "page_contents"],
  queryIndexes: ["pages_parent", "pages_title", "pages_owner", "page_ancestors_folder"],
};

const VISIBLE = `(p.owner_id IN (SELECT value FROM json_each(@owners))
  OR p.id IN (SELECT value FROM json_each(@pages))
  OR EXISTS (SELECT 1 FROM page_ancestors a WHERE a.page_id = p.id AND a.folder_id IN (SELECT value FROM json_each(@folders))))`;

/**
 * The same visibility test over comma-joined id lists: ids are UUIDs (no commas, one fixed length), so a match
 * of one inside a list is a whole entry. About half the cost of the json_each form for a handful of rows
 * (no subquery to build per execution), which suits the few same-titled rows a title lookup tests.
 */
const VISIBLE_IN_ID_LISTS = `(instr(@owners, p.owner_id) > 0 OR instr(@pages, p.id) > 0
  OR EXISTS (SELECT 1 FROM page_ancestors a WHERE a.page_id = p.id AND instr(@folders, a.folder_id) > 0))`;

/**
 * The three sources of a visible list. Each yields (id, updated_pos) newest first straight from a covering index,
 * so gathering candidates never touches page rows; only the winners are read in full (see list()).
 */
export const PAGES_OF_OWNER = `SELECT id, updated_pos FROM pages WHERE owner_id = ? AND deleted = 0 AND (updated_pos, id) < (?, ?)
  ORDER BY updated_pos DESC, id DESC LIMIT CAST(? AS INTEGER)`;
export const PAGES_BELOW_FOLDER = `SELECT page_id AS id, updated_pos FROM page_ancestors WHERE folder_id = ? AND (updated_pos, page_id) < (?, ?)
  ORDER BY updated_pos DESC, page_id DESC LIMIT CAST(? AS INTEGER)`;
export const PAGES_BY_ID = `SELECT id, updated_pos FROM pages WHERE id IN (SELECT value FROM json_each(?)) AND deleted = 0 AND (updated_pos, id) < (?, ?)
  ORDER BY updated_pos DESC, id DESC LIMIT CAST(? AS INTEGER)`;
const PAGES_IN = "SELECT * FROM pages WHERE id IN (SELECT value FROM json_each(?)) AND deleted = 0";

type Candidate = { id: string; updated_pos: number };
/** The parts of a caller's merged listing (listFor), each with its cursor: a workspace's pages, the caller's own listing. */
const OWNER_PART =
  "SELECT id, updated_pos FROM pages WHERE owner_id = ? AND deleted = 0 AND (updated_pos, id) < (?, ?)";
const LISTED_PART = `SELECT page_id AS id, updated_pos FROM page_audience WHERE user_id = ? AND (updated_pos, page_id) < (?, ?)
  AND ${FILLED("page_audience")}`;
type SourceKind = "owner" | "folder" | "pages";
const SOURCE_SQL: Record<SourceKind, string> = {
  owner: PAGES_OF_OWNER,
  folder: PAGES_BELOW_FOLDER,
  pages: PAGES_BY_ID,
};
/** Compound first-round statements kept, one per shape (how many owners, folders, page grants). */
const COMPOUND_STATEMENT_LIMIT = 256;
/** SQLite allows 500 terms in a compound select; callers with more grants read their sources one by one. */
const MAX_COMPOUND_SOURCES = 200;
/**
 * A page's record as the batch holds it: as read from its row (`dirty` false), or as put and not written yet,
 * with the content to write (null: unchanged) and whether its search entry is to be rewritten.
 */
type HeldPage = { record: PageRecord; markdown: string | null; reindex: boolean; dirty: boolean };
type Pending = { rows: Map<string, HeldPage>; unindexed: Set<string> };

const rowOf = (page: PageRecord) => ({
  ...page,
  titleKey: titleKey(page.title),
  ancestorIds: encodeIds(page.ancestorIds),
});

type TitleParams = { key: string; owners: string; pages: string; folders: string; limit: number };
type ListedForParams = {
  before: number;
  beforeId: string;
  owners: string;
  user: string;
  limit: number;
  parent: string;
};
type ListParams = {
  before: number;
  beforeId: string;
  owners: string;
  pages: string;
  folders: string;
  limit: number;
  parent: string;
};

/** Page records kept in memory for lists; an entry is used only while its updated_pos is the current one. */
const RECORD_CACHE_LIMIT = 50_000;

/**
 * A page put where it already sits (renamed, re-iconed, edited, restored) is held back within the batch and
 * written once, just before the batch commits or before a write that reads or rewrites page rows: a batch
 * replaying a page's many renames and edits writes its row once instead of once per event. A page made, back
 * from the trash or moved is written at once, as other read models read where pages sit. The records read or
 * written at once within the batch are held too, so the projection's read before each put reads a row at most
 * once per batch (a page made in the batch, never). The search index, which rewrites and re-tokenises a page's
 * whole markdown on each write, is written last, once per page the batch touched, from the rows as the batch
 * leaves them. The held-back rows belong to the batch handle, so a rolled-back batch takes them with it.
 */
export class SqlitePagesWriter implements PagesWriter<SqliteBatch> {
  private readonly statements;
  private readonly pendingByBatch = new WeakMap<SqliteBatch, Pending>();
  private readonly index: SqlitePageIndexer;

  /**
   * `audience`: the per-user listing (page-audience.sqlite.ts), told of every page whose place, order or life changes.
   * `searchIndex: false` leaves the full-text index empty (for measuring what keeping it costs).
   */
  constructor(
    db: Database.Database,
    private readonly audience: SqlitePageAudience,
    options: { searchIndex?: boolean; onSearchEntryRemoved?: () => void } = {},
  ) {
    this.index = new SqlitePageIndexer(db, options.searchIndex ?? true, options.onSearchEntryRemoved);
    this.statements = {
      insert: db.prepare<[ReturnType<typeof rowOf>]>(
        `INSERT OR REPLACE INTO pages (id, owner_id, parent_id, title, title_key, icon, ancestor_ids, folder_path, created_at, updated_at, updated_pos, revision)
         VALUES (@id, @ownerId, @parentId, @title, @titleKey, @icon, @ancestorIds, @folderPath, @createdAt, @updatedAt, @updatedPosition, @revision)`,
      ),
      update: db.prepare<[ReturnType<typeof rowOf>]>(
        `UPDATE pages SET owner_id = @ownerId, parent_id = @parentId, title = @title, title_key = @titleKey, icon = @icon,
           ancestor_ids = @ancestorIds, folder_path = @folderPath, created_at = @createdAt, updated_at = @updatedAt,
           updated_pos = @updatedPosition, revision = @revision
         WHERE id = @id`,
      ),
      ancestor: db.prepare<[string, string, number]>(
        "INSERT OR REPLACE INTO page_ancestors (page_id, folder_id, updated_pos) VALUES (?, ?, ?)",
      ),
      touchAncestors: db.prepare<[number, string]>("UPDATE page_ancestors SET updated_pos = ? WHERE page_id = ?"),
      removeAncestors: db.prepare<[string]>("DELETE FROM page_ancestors WHERE page_id = ?"),
      content: db.prepare<[string, string]>("INSERT OR REPLACE INTO page_contents (page_id, markdown) VALUES (?, ?)"),
      remove: db.prepare("UPDATE pages SET deleted = 1 WHERE id = ?"),
      removeContent: db.prepare("DELETE FROM page_contents WHERE page_id = ?"),
      purge: db.prepare<[string]>("DELETE FROM pages WHERE id = ?"),
      get: db.prepare<[string], PageRow>("SELECT * FROM pages WHERE id = ? AND deleted = 0"),
      ownerOf: db.prepare<[string], string>("SELECT owner_id FROM pages WHERE id = ?").pluck(),
      below: db.prepare<[string], Pick<PageRow, "id" | "ancestor_ids" | "folder_path" | "updated_pos">>(
        "SELECT p.id, p.ancestor_ids, p.folder_path, p.updated_pos FROM page_ancestors a JOIN pages p ON p.id = a.page_id WHERE a.folder_id = ?",
      ),
      setPlace: db.prepare<[{ id: string; ancestorIds: string; folderPath: string }]>(
        "UPDATE pages SET ancestor_ids = @ancestorIds, folder_path = @folderPath WHERE id = @id",
      ),
      touch: db.prepare<[{ id: string; updatedAt: string; updatedPosition: number }]>(
        "UPDATE pages SET updated_at = @updatedAt, updated_pos = @updatedPosition WHERE id = @id",
      ),
    };
  }

  async get(tx: SqliteBatch, id: string): Promise<PageRecord | null> {
    const pending = this.pendingOf(tx);
    const held = pending.rows.get(id);
    if (held) return held.record;
    const record = this.read(id);
    if (record) pending.rows.set(id, { record, markdown: null, reindex: false, dirty: false });
    return record;
  }

  async ownerOf(_tx: SqliteBatch, id: string): Promise<string | null> {
    // A page's owner never changes, so the changes held back in the batch cannot alter the answer.
    return this.statements.ownerOf.get(id) ?? null;
  }

  async put(tx: SqliteBatch, page: PageRecord, markdown?: string): Promise<void> {
    const pending = this.pendingOf(tx);
    const held = pending.rows.get(page.id);
    const stored = held ? held.record : this.read(page.id);
    if (stored && samePlace(stored, page)) {
      pending.rows.set(page.id, {
        record: page,
        markdown: markdown ?? held?.markdown ?? null,
        reindex: (held?.reindex ?? false) || markdown !== undefined || page.title !== stored.title,
        dirty: true,
      });
      return;
    }
    // Made, back from the trash or moved: its row, its ancestors and who lists it, at once.
    this.flush(pending);
    const row = rowOf(page);
    if (stored) this.statements.update.run(row);
    else this.statements.insert.run(row);
    this.statements.removeAncestors.run(page.id);
    for (const folderId of page.ancestorIds) this.statements.ancestor.run(page.id, folderId, page.updatedPosition);
    if (!stored || markdown !== undefined) this.statements.content.run(page.id, markdown ?? "");
    this.audience.pageChanged(tx, page.id);
    pending.unindexed.add(page.id);
    // Its row is now this record (every column of it): the page's next events in the batch need not read it.
    pending.rows.set(page.id, { record: page, markdown: null, reindex: false, dirty: false });
  }

  async placeBelow(tx: SqliteBatch, folder: FolderPlace, changed: Changed | null): Promise<void> {
    const pending = this.pendingOf(tx);
    this.flush(pending);
    for (const row of this.statements.below.all(folder.id)) {
      const { ancestorIds, path: folderPath } = reRooted(
        { ancestorIds: decodeIds(row.ancestor_ids), path: row.folder_path },
        folder,
      );
      this.statements.setPlace.run({ id: row.id, ancestorIds: encodeIds(ancestorIds), folderPath });
      if (changed) this.statements.touch.run({ id: row.id, ...changed });
      const position = changed ? changed.updatedPosition : row.updated_pos;
      this.statements.removeAncestors.run(row.id);
      for (const folderId of ancestorIds) this.statements.ancestor.run(row.id, folderId, position);
      // The index holds each page's ancestors (its scope): they change on a move, not on a rename; so do the
      // folders whose grants reach it.
      if (changed) {
        pending.unindexed.add(row.id);
        this.audience.pageChanged(tx, row.id);
      }
    }
  }

  async remove(tx: SqliteBatch, id: string): Promise<void> {
    const pending = this.pendingOf(tx);
    this.flush(pending);
    this.statements.remove.run(id);
    this.statements.removeContent.run(id);
    this.statements.removeAncestors.run(id);
    this.audience.pageChanged(tx, id);
    pending.unindexed.add(id);
  }

  async purge(tx: SqliteBatch, id: string): Promise<void> {
    await this.remove(tx, id);
    this.statements.purge.run(id);
  }

  private read(id: string): PageRecord | null {
    const row = this.statements.get.get(id);
    return row ? toPageRecord(row) : null;
  }

  private pendingOf(tx: SqliteBatch): Pending {
    let pending = this.pendingByBatch.get(tx);
    if (!pending) {
      const held: Pending = { rows: new Map(), unindexed: new Set() };
      tx.onBeforeCommit(() => {
        this.flush(held);
        for (const id of held.unindexed) this.index.reindex(id);
        held.unindexed.clear();
      });
      this.pendingByBatch.set(tx, held);
      pending = held;
    }
    return pending;
  }

  /** Writes the held-back pages; the records read are let go with them, as the rows may change next. */
  private flush(pending: Pending): void {
    for (const { record, markdown, reindex, dirty } of pending.rows.values()) {
      if (!dirty) continue;
      this.statements.update.run(rowOf(record));
      this.statements.touchAncestors.run(record.updatedPosition, record.id);
      this.audience.pageTouched(record.id, record.updatedPosition);
      if (markdown !== null) this.statements.content.run(record.id, markdown);
      if (reindex) pending.unindexed.add(record.id);
    }
    pending.rows.clear();
  }
}

export class SqlitePagesView implements PagesView {
  private readonly statements;
  private readonly records = new Map<string, PageRecord>();
  private readonly compounds = new Map<string, Database.Statement<unknown[], Candidate & { source: number }>>();
  private readonly merges = new Map<number, Database.Statement<unknown[], Candidate>>();
  private readonly snapshot: <T>(read: () => T) => T;
  private readonly searcher: SqlitePageSearch;

  /** `searchRanking`: where a search's ranking statement runs (page-search-rank.ts); by default on `db`. */
  constructor(
    private readonly db: Database.Database,
    searchRanking?: SearchRanking,
  ) {
    this.searcher = new SqlitePageSearch(db, searchRanking);
    // A list reads several statements; one read transaction makes them all see the same committed batch. The
    // transaction's wrapper is made once: better-sqlite3 builds it anew at each db.transaction().
    const inTransaction = db.transaction((read: () => unknown) => read());
    this.snapshot = <T>(read: () => T): T => inTransaction(read) as T;
    this.statements = {
      get: db.prepare<[string], PageRow>("SELECT * FROM pages WHERE id = ? AND deleted = 0"),
      getContent: db.prepare<[string], PageRow & { markdown: string }>(
        "SELECT p.*, c.markdown FROM pages p JOIN page_contents c ON c.page_id = p.id WHERE p.id = ? AND p.deleted = 0",
      ),
      byOwner: db.prepare<[string, number, string, number], Candidate>(PAGES_OF_OWNER),
      byAncestor: db.prepare<[string, number, string, number], Candidate>(PAGES_BELOW_FOLDER),
      byIds: db.prepare<[string, number, string, number], Candidate>(PAGES_BY_ID),
      listedFor: db.prepare<[string, number, string, number], Candidate>(LISTED_FOR_USER),
      pagesIn: db.prepare<[string], PageRow>(PAGES_IN),
      listInFolder: db.prepare<[ListParams], PageRow>(
        `SELECT p.* FROM pages p WHERE p.deleted = 0 AND p.parent_id = @parent AND (p.updated_pos, p.id) < (@before, @beforeId) AND ${VISIBLE}
         ORDER BY p.updated_pos DESC, p.id DESC LIMIT CAST(@limit AS INTEGER)`,
      ),
      listInFolderFor: db.prepare<[ListedForParams], PageRow>(
        `SELECT p.* FROM pages p WHERE p.deleted = 0 AND p.parent_id = @parent AND (p.updated_pos, p.id) < (@before, @beforeId)
           AND (p.owner_id IN (SELECT value FROM json_each(@owners))
             OR EXISTS (SELECT 1 FROM page_audience a WHERE a.user_id = @user AND a.page_id = p.id AND ${FILLED("a")}))
         ORDER BY p.updated_pos DESC, p.id DESC LIMIT CAST(@limit AS INTEGER)`,
      ),
      byTitle: db.prepare<[TitleParams], PageRow>(
        `SELECT p.* FROM pages p WHERE p.title_key = @key AND p.deleted = 0 AND ${VISIBLE_IN_ID_LISTS}
         ORDER BY p.updated_pos DESC LIMIT CAST(@limit AS INTEGER)`,
      ),
    };
  }

  async get(id: string): Promise<PageRecord | null> {
    const row = this.statements.get.get(id);
    return row ? toPageRecord(row) : null;
  }

  async getContent(id: string): Promise<PageContent | null> {
    const row = this.statements.getContent.get(id);
    return row ? { page: toPageRecord(row), markdown: row.markdown } : null;
  }

  /**
   * Each source of visibility (an owner's workspace, a granted folder's subtree, directly granted pages) is read
   * newest first from its own covering index and the sources are merged lazily: the cost grows with the number
   * of grants and the page size, never with the number of pages in the store.
   */
  async list(query: PageListQuery): Promise<PageRecord[]> {
    if (query.listedFor !== undefined) return this.listFor(query, query.listedFor);
    const before = query.before ?? LIST_START;
    const take = query.limit + 1;
    const { ownerIds, folderIds, pageIds } = query.visibleTo;
    if (query.parentId !== null) {
      const params: ListParams = {
        before: before.position,
        beforeId: before.id,
        owners: JSON.stringify(ownerIds),
        pages: JSON.stringify(pageIds),
        folders: JSON.stringify(folderIds),
        limit: take,
        parent: query.parentId,
      };
      return this.statements.listInFolder.all(params).map(toPageRecord);
    }
    const ranked = (rows: Candidate[]) => rows.map((row) => ({ id: row.id, position: row.updated_pos }));
    const grantedPages = JSON.stringify(pageIds);
    const sources: RankedSource[] = [
      ...ownerIds.map(
        (owner): RankedSource =>
          (upTo, limit) =>
            ranked(this.statements.byOwner.all(owner, upTo.position, upTo.id, limit)),
      ),
      ...folderIds.map(
        (folder): RankedSource =>
          (upTo, limit) =>
            ranked(this.statements.byAncestor.all(folder, upTo.position, upTo.id, limit)),
      ),
      ...(pageIds.length > 0
        ? [
            (upTo: ListKey, limit: number) =>
              ranked(this.statements.byIds.all(grantedPages, upTo.position, upTo.id, limit)),
          ]
        : []),
    ];
    const keys = [
      ...ownerIds.map((id) => ["owner", id] as const),
      ...folderIds.map((id) => ["folder", id] as const),
      ...(pageIds.length > 0 ? [["pages", grantedPages] as const] : []),
    ];
    const firstRound: FirstRound | undefined =
      keys.length <= MAX_COMPOUND_SOURCES ? (upTo, limit) => this.firstRound(keys, upTo, limit) : undefined;
    return this.snapshot(() => this.recordsAt(newestOfSources(sources, before, take, firstRound)));
  }

  /**
   * The caller's list from the listings by audience: one range scan of their own listing (every page granted to
   * them or a group of theirs) merged with one of each workspace they own or hold a role in. The cost grows with
   * the page size and the number of those workspaces, not with the number of grants or pages.
   */
  private listFor(query: PageListQuery, userId: string): PageRecord[] {
    const before = query.before ?? LIST_START;
    const take = query.limit + 1;
    const { ownerIds } = query.visibleTo;
    if (query.parentId !== null) {
      const params: ListedForParams = {
        before: before.position,
        beforeId: before.id,
        owners: JSON.stringify(ownerIds),
        user: userId,
        limit: take,
        parent: query.parentId,
      };
      return this.statements.listInFolderFor.all(params).map(toPageRecord);
    }
    if (ownerIds.length + 1 > MAX_COMPOUND_SOURCES) return this.listForOneByOne(ownerIds, userId, before, take);
    const merged = this.mergedListing(ownerIds.length);
    const params = [...ownerIds, userId].flatMap((key) => [key, before.position, before.id]);
    const winners = () => merged.all(...params, take).map((row) => ({ id: row.id, position: row.updated_pos }));
    // One statement sees one committed state by itself: when memory holds every winner's record at its position
    // (the usual case), no read transaction is needed; otherwise the statement and the records' read share one.
    const first = winners();
    if (first.every((w) => this.records.get(w.id)?.updatedPosition === w.position)) return this.recordsAt(first);
    return this.snapshot(() => this.recordsAt(winners()));
  }

  /**
   * One statement per number of workspaces: the caller's listing and each workspace read newest first from their
   * indexes and merged by SQLite itself (a compound SELECT with ORDER BY merges its parts lazily, each read only
   * as far as the page needs), UNION listing a page seen through both once. No temporary sort, about `take` index
   * rows read in all.
   */
  private mergedListing(owners: number): Database.Statement<unknown[], Candidate> {
    let statement = this.merges.get(owners);
    if (!statement) {
      const parts = [...Array.from({ length: owners }, () => OWNER_PART), LISTED_PART];
      statement = this.db.prepare<unknown[], Candidate>(
        `${parts.join(" UNION ")} ORDER BY updated_pos DESC, id DESC LIMIT CAST(? AS INTEGER)`,
      );
      this.merges.set(owners, statement);
    }
    return statement;
  }

  /** Past SQLite's limit on the terms of a compound select: each source read by itself and merged here. */
  private listForOneByOne(ownerIds: readonly string[], userId: string, before: ListKey, take: number): PageRecord[] {
    const ranked = (rows: Candidate[]) => rows.map((row) => ({ id: row.id, position: row.updated_pos }));
    const sources: RankedSource[] = [
      ...ownerIds.map(
        (owner): RankedSource =>
          (upTo, limit) =>
            ranked(this.statements.byOwner.all(owner, upTo.position, upTo.id, limit)),
      ),
      (upTo, limit) => ranked(this.statements.listedFor.all(userId, upTo.position, upTo.id, limit)),
    ];
    return this.snapshot(() => this.recordsAt(newestOfSources(sources, before, take)));
  }

  /**
   * The first chunk of every source in one compound statement (one per shape of sources, kept): a single
   * round trip into SQLite instead of one per grant.
   */
  private firstRound(keys: ReadonlyArray<readonly [SourceKind, string]>, before: ListKey, limit: number): Ranked[][] {
    const shape = keys.map(([kind]) => kind[0]).join("");
    let statement = this.compounds.get(shape);
    if (!statement) {
      if (this.compounds.size >= COMPOUND_STATEMENT_LIMIT) this.compounds.clear();
      const parts = keys.map(
        ([kind], index) => `SELECT ${index} AS source, id, updated_pos FROM (${SOURCE_SQL[kind]})`,
      );
      statement = this.db.prepare<unknown[], Candidate & { source: number }>(parts.join(" UNION ALL "));
      this.compounds.set(shape, statement);
    }
    const chunks: Ranked[][] = keys.map(() => []);
    for (const row of statement.all(...keys.flatMap(([, key]) => [key, before.position, before.id, limit]))) {
      chunks[row.source]?.push({ id: row.id, position: row.updated_pos });
    }
    return chunks;
  }

  /** The records of these (id, position) pairs, newest first: from memory when the position still matches. */
  private recordsAt(winners: Ranked[]): PageRecord[] {
    const missing = winners.filter((w) => this.records.get(w.id)?.updatedPosition !== w.position).map((w) => w.id);
    if (missing.length > 0) {
      if (this.records.size + missing.length > RECORD_CACHE_LIMIT) this.records.clear();
      for (const row of this.statements.pagesIn.all(JSON.stringify(missing)))
        this.records.set(row.id, toPageRecord(row));
    }
    return winners.flatMap((w) => {
      const record = this.records.get(w.id);
      return record && record.updatedPosition === w.position ? [record] : [];
    });
  }

  async findByTitleKey(key: string, visibleTo: VisibleTo, limit: number): Promise<PageRecord[]> {
    const params: TitleParams = {
      key,
      owners: encodeIds(visibleTo.ownerIds),
      pages: encodeIds(visibleTo.pageIds),
      folders: encodeIds(visibleTo.folderIds),
      limit,
    };
    return this.statements.byTitle.all(params).map(toPageRecord);
  }

  async search(query: SearchQuery): Promise<SearchHit[]> {
    return this.searcher.search(query);
  }
}
