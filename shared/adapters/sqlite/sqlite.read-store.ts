// The read models in one SQLite file. The projector opens a SqliteProjectionStore (the only writer); every
// reader opens a SqliteReadStore of its own: in WAL mode readers see the last committed batch, never half of one.
import type Database from "better-sqlite3";
import type { ProjectionStore, ProjectionWriters, ReadStore } from "../../read-store/read-store.port.ts";
import { accessModel, SqliteAccessView, SqliteAccessWriter } from "./access.view.sqlite.ts";
import { imagesModel, SqliteImagesView, SqliteImagesWriter } from "./images.view.sqlite.ts";
import { attachmentsModel, SqliteAttachmentsView, SqliteAttachmentsWriter } from "./attachments.view.sqlite.ts";
import { historyModel, SqliteHistoryView, SqliteHistoryWriter } from "./history.view.sqlite.ts";
import { linksModel, SqliteLinksView, SqliteLinksWriter } from "./links.view.sqlite.ts";
import { SqliteTrashView, SqliteTrashWriter, trashModel } from "./trash.view.sqlite.ts";
import { foldersModel, SqliteFoldersView, SqliteFoldersWriter } from "./folders.view.sqlite.ts";
import { invitationsModel, SqliteInvitationsView, SqliteInvitationsWriter } from "./invitations.view.sqlite.ts";
import { openDatabase, PAGE_CACHE_MB } from "./open-database.ts";
import { IdleIndexMerge } from "./idle-index-merge.ts";
import { WalCheckpointer } from "./wal-checkpointer.ts";
import { pagesModel, SqlitePagesView, SqlitePagesWriter } from "./pages.view.sqlite.ts";
import { pageAudienceModel, SqlitePageAudience } from "./page-audience.sqlite.ts";
import { pageSearchModel } from "./page-search.sqlite.ts";
import type { SearchRanking } from "./page-search-rank.ts";
import { SqliteBatch, type SqliteModel } from "./sqlite-batch.ts";
import { SqliteThreadsView, SqliteThreadsWriter, threadsModel } from "./threads.view.sqlite.ts";
import { SqliteTokensView, SqliteTokensWriter, tokensModel } from "./tokens.view.sqlite.ts";
import { SqliteAppsView, SqliteAppsWriter, appsModel } from "./apps.view.sqlite.ts";
import { shareLinksModel, SqliteShareLinksView, SqliteShareLinksWriter } from "./share-links.view.sqlite.ts";
import { SqliteUsersView, SqliteUsersWriter, usersModel } from "./users.view.sqlite.ts";
import { SqliteStoredBytesView, SqliteStoredBytesWriter, storedBytesModel } from "./stored-bytes.view.sqlite.ts";
import { SqliteGroupsView, SqliteGroupsWriter, groupsModel } from "./groups.view.sqlite.ts";
import { SqliteWebhooksView, SqliteWebhooksWriter, webhooksModel } from "./webhooks.view.sqlite.ts";
import { templatesModel, SqliteTemplatesView, SqliteTemplatesWriter } from "./templates.view.sqlite.ts";
import { watchesModel, SqliteWatchesView, SqliteWatchesWriter } from "./watches.view.sqlite.ts";
import {
  notificationSettingsModel,
  SqliteNotificationSettingsView,
  SqliteNotificationSettingsWriter,
} from "./notification-settings.view.sqlite.ts";
import { mentionsModel, SqliteMentionsView, SqliteMentionsWriter } from "./mentions.view.sqlite.ts";
import { directoryModel, SqliteDirectoryView, SqliteDirectoryWriter } from "./directory.view.sqlite.ts";
import { notificationsModel, SqliteNotificationsView, SqliteNotificationsWriter } from "./notifications.view.sqlite.ts";
import { auditModel, SqliteAuditView, SqliteAuditWriter } from "./audit.view.sqlite.ts";
import type { CacheMetrics } from "../../metrics/metrics.port.ts";
import { ReadModelLayoutChangedError } from "../../read-store/layout-changed.ts";
import { parkedEventsModel, SqliteParkedEvents } from "./parked-events.sqlite.ts";

/** Bump whenever a read-model table changes shape. */
const READ_MODEL_VERSION = 25;

const checkpointModel: SqliteModel = {
  schema: `
CREATE TABLE IF NOT EXISTS checkpoint (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  position INTEGER NOT NULL
);
INSERT OR IGNORE INTO checkpoint (id, position) VALUES (1, 0);`,
  tables: [],
  queryIndexes: [],
};

const models = [
  checkpointModel,
  usersModel,
  tokensModel,
  appsModel,
  foldersModel,
  pagesModel,
  pageAudienceModel,
  pageSearchModel,
  accessModel,
  threadsModel,
  invitationsModel,
  imagesModel,
  historyModel,
  webhooksModel,
  linksModel,
  trashModel,
  shareLinksModel,
  attachmentsModel,
  storedBytesModel,
  groupsModel,
  parkedEventsModel,
  templatesModel,
  watchesModel,
  notificationSettingsModel,
  mentionsModel,
  directoryModel,
  notificationsModel,
  auditModel,
];
const schemas = models.map((model) => model.schema).join("\n");

const layoutOf = (db: Database.Database): number => Number(db.pragma("user_version", { simple: true }));

/**
 * Read models are disposable: when their layout changes (READ_MODEL_VERSION), the old tables are dropped and
 * the checkpoint starts at zero, so the projector rebuilds them from the event history. Read models of a newer
 * layout belong to a newer release: they are refused (ReadModelLayoutChangedError), never dropped.
 */
function openReadModels(filename: string): Database.Database {
  const db = openDatabase(filename, { cacheMb: PAGE_CACHE_MB.readModels });
  const layout = layoutOf(db);
  if (layout > READ_MODEL_VERSION) {
    db.close();
    throw new ReadModelLayoutChangedError(layout, READ_MODEL_VERSION);
  }
  if (layout !== READ_MODEL_VERSION) {
    const old = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all();
    db.transaction(() => {
      for (const { name } of old) db.exec(`DROP TABLE IF EXISTS "${name}"`);
      db.exec("DROP TABLE IF EXISTS sqlite_stat1; DROP TABLE IF EXISTS sqlite_stat4;");
      db.exec(schemas);
      db.pragma(`user_version = ${READ_MODEL_VERSION}`);
    })();
  }
  db.exec(schemas);
  return db;
}

const readCheckpoint = (db: Database.Database) =>
  db.prepare<[], number>("SELECT position FROM checkpoint WHERE id = 1").pluck();

export class SqliteReadStore implements ReadStore {
  readonly users;
  readonly tokens;
  readonly apps;
  readonly folders;
  readonly pages;
  readonly access;
  readonly threads;
  readonly invitations;
  readonly images;
  readonly attachments;
  readonly history;
  readonly webhooks;
  readonly links;
  readonly trash;
  readonly shareLinks;
  readonly storedBytes;
  readonly groups;
  readonly templates;
  readonly watches;
  readonly notificationSettings;
  readonly mentions;
  readonly directory;
  readonly notifications;
  readonly audit;
  private readonly db: Database.Database;
  private readonly checkpointStatement;

  /** `searchRanking`: where searches are ranked (the server: its worker pool); by default on this connection. */
  constructor(filename: string, options: { accessContextCache?: CacheMetrics; searchRanking?: SearchRanking } = {}) {
    this.db = openReadModels(filename);
    this.users = new SqliteUsersView(this.db);
    this.tokens = new SqliteTokensView(this.db);
    this.apps = new SqliteAppsView(this.db);
    this.folders = new SqliteFoldersView(this.db);
    this.pages = new SqlitePagesView(this.db, options.searchRanking);
    this.access = new SqliteAccessView(this.db, options.accessContextCache);
    this.threads = new SqliteThreadsView(this.db);
    this.invitations = new SqliteInvitationsView(this.db);
    this.images = new SqliteImagesView(this.db);
    this.attachments = new SqliteAttachmentsView(this.db);
    this.history = new SqliteHistoryView(this.db);
    this.webhooks = new SqliteWebhooksView(this.db);
    this.links = new SqliteLinksView(this.db);
    this.trash = new SqliteTrashView(this.db);
    this.shareLinks = new SqliteShareLinksView(this.db);
    this.storedBytes = new SqliteStoredBytesView(this.db);
    this.groups = new SqliteGroupsView(this.db);
    this.templates = new SqliteTemplatesView(this.db);
    this.watches = new SqliteWatchesView(this.db);
    this.notificationSettings = new SqliteNotificationSettingsView(this.db);
    this.mentions = new SqliteMentionsView(this.db);
    this.directory = new SqliteDirectoryView(this.db);
    this.notifications = new SqliteNotificationsView(this.db);
    this.audit = new SqliteAuditView(this.db);
    this.checkpointStatement = readCheckpoint(this.db);
  }

  async checkpoint(): Promise<number> {
    return this.checkpointStatement.get() ?? 0;
  }

  async ping(): Promise<boolean> {
    return this.db.prepare("SELECT 1 AS ok").get() !== undefined;
  }

  async parkedEvents(): Promise<number> {
    return new SqliteParkedEvents(this.db).count();
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

export class SqliteProjectionStore implements ProjectionStore<SqliteBatch> {
  readonly writers: ProjectionWriters<SqliteBatch>;
  readonly parked: SqliteParkedEvents;
  private readonly db: Database.Database;
  private readonly statements;
  private readonly indexMerge: IdleIndexMerge;
  private readonly walCheckpoints: WalCheckpointer;
  /** The per-user page listing: writers mark what changed, the batch recomputes it before committing. */
  private readonly audience: SqlitePageAudience;
  /** Whether the batch under way took a page's entry out of the search index. */
  private searchEntryRemoved = false;
  /** A rebuild ends with the index optimized (pageSearchModel.afterRebuild): no merge is started before. */
  private rebuilding = false;

  /** `searchIndex: false` keeps the full-text index empty: only for measuring what the index costs. */
  constructor(filename: string, options: { searchIndex?: boolean } = {}) {
    this.db = openReadModels(filename);
    this.indexMerge = new IdleIndexMerge(this.db);
    this.walCheckpoints = new WalCheckpointer(this.db, filename);
    // A merge an earlier process owed when it stopped (a crash) is finished now.
    this.indexMerge.afterBatch(true);
    this.audience = new SqlitePageAudience(this.db);
    this.writers = {
      users: new SqliteUsersWriter(this.db),
      tokens: new SqliteTokensWriter(this.db),
      apps: new SqliteAppsWriter(this.db),
      folders: new SqliteFoldersWriter(this.db),
      pages: new SqlitePagesWriter(this.db, this.audience, {
        ...options,
        onSearchEntryRemoved: () => {
          this.searchEntryRemoved = true;
        },
      }),
      access: new SqliteAccessWriter(this.db, this.audience),
      threads: new SqliteThreadsWriter(this.db),
      invitations: new SqliteInvitationsWriter(this.db),
      images: new SqliteImagesWriter(this.db),
      attachments: new SqliteAttachmentsWriter(this.db),
      history: new SqliteHistoryWriter(this.db),
      webhooks: new SqliteWebhooksWriter(this.db),
      links: new SqliteLinksWriter(this.db),
      trash: new SqliteTrashWriter(this.db),
      shareLinks: new SqliteShareLinksWriter(this.db),
      storedBytes: new SqliteStoredBytesWriter(this.db),
      groups: new SqliteGroupsWriter(this.db),
      templates: new SqliteTemplatesWriter(this.db),
      watches: new SqliteWatchesWriter(this.db),
      notificationSettings: new SqliteNotificationSettingsWriter(this.db),
      mentions: new SqliteMentionsWriter(this.db),
      directory: new SqliteDirectoryWriter(this.db),
      notifications: new SqliteNotificationsWriter(this.db),
      audit: new SqliteAuditWriter(this.db),
    };
    this.parked = new SqliteParkedEvents(this.db);
    this.statements = {
      checkpoint: readCheckpoint(this.db),
      setCheckpoint: this.db.prepare<[number]>("UPDATE checkpoint SET position = ? WHERE id = 1"),
      // Prepared once: db.pragma() compiles its statement anew at every batch.
      layout: this.db.prepare<[], number>("PRAGMA user_version").pluck(),
    };
  }

  async checkpoint(): Promise<number> {
    return this.statements.checkpoint.get() ?? 0;
  }

  async applyBatch(position: number | null, work: (tx: SqliteBatch) => Promise<void>): Promise<void> {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      // Inside the write transaction, so no other writer lays the file out anew between the check and the commit.
      const layout = this.statements.layout.get() ?? 0;
      if (layout !== READ_MODEL_VERSION) throw new ReadModelLayoutChangedError(layout, READ_MODEL_VERSION);
      const tx = new SqliteBatch();
      await work(tx);
      tx.settle();
      this.audience.settle(tx);
      if (position !== null) this.statements.setCheckpoint.run(position);
      this.db.exec("COMMIT");
      this.walCheckpoints.afterCommit();
      this.audience.afterCommit();
    } catch (error) {
      this.db.exec("ROLLBACK");
      throw error;
    } finally {
      this.indexMerge.afterBatch(this.searchEntryRemoved && !this.rebuilding);
      this.searchEntryRemoved = false;
    }
  }

  async beginRebuild(): Promise<void> {
    this.rebuilding = true;
    this.db.transaction(() => {
      for (const model of models) {
        for (const table of model.tables) this.db.exec(`DELETE FROM ${table}`);
        for (const index of model.queryIndexes) this.db.exec(`DROP INDEX IF EXISTS ${index}`);
      }
      this.statements.setCheckpoint.run(0);
    })();
    this.audience.beginRebuild();
  }

  async endRebuild(): Promise<void> {
    // No ANALYZE: with its sqlite_stat4 tables SQLite re-plans a statement for every new bound value,
    // which doubles the cost of the small indexed reads the lists are made of.
    this.db.exec(schemas);
    this.audience.endRebuild();
    for (const model of models) if (model.afterRebuild) this.db.exec(model.afterRebuild);
    this.rebuilding = false;
  }

  async close(): Promise<void> {
    await this.walCheckpoints.close();
    this.indexMerge.close();
    this.audience.close();
    this.db.close();
  }
}
