// The read models in MongoDB. The projector opens a MongoProjectionStore (the only writer); every reader opens a
// MongoReadStore. On a replica set each batch and its checkpoint commit in one transaction, so readers see the
// last committed batch, never half of one. On a standalone server (no transactions) each write stands alone and
// the checkpoint is written last; every write is an upsert or a `$set` of what the event says, page changes
// are skipped when the page already shows a later position and access changes keep the highest position, so
// a batch applied again after a crash ends in the same documents.
//
// Collections belong to a generation (`rm<n>_pages`); the `read_model_meta` document names the active one. A
// replay builds the next generation beside it and switches over once caught up (see ReadModelReplay).
import { MongoClient, ReadPreference, type Db } from "mongodb";
import type { ProjectionStore, ProjectionWriters, ReadStore } from "../../read-store/read-store.port.ts";
import type { CacheMetrics } from "../../metrics/metrics.port.ts";
import { ReadModelLayoutChangedError } from "../../read-store/layout-changed.ts";
import { batchRefusalOf } from "./batch-refusal.mongo.ts";
import { MongoAccessView, MongoAccessWriter, accessModel } from "./access.view.mongo.ts";
import { MongoFoldersView, MongoFoldersWriter, foldersModel } from "./folders.view.mongo.ts";
import { MongoHistoryView, MongoHistoryWriter, historyModel } from "./history.view.mongo.ts";
import { MongoImagesView, MongoImagesWriter, imagesModel } from "./images.view.mongo.ts";
import { MongoAttachmentsView, MongoAttachmentsWriter, attachmentsModel } from "./attachments.view.mongo.ts";
import { MongoLinksView, MongoLinksWriter, linksModel } from "./links.view.mongo.ts";
import { MongoTrashView, MongoTrashWriter, trashModel } from "./trash.view.mongo.ts";
import { MongoInvitationsView, MongoInvitationsWriter, invitationsModel } from "./invitations.view.mongo.ts";
import { Generation, MongoBatch, type GenerationRef, type MongoIndex, type MongoModel } from "./mongo-batch.ts";
import { MongoPagesView, MongoPagesWriter, pagesModel } from "./pages.view.mongo.ts";
import { MongoPageAudience, pageAudienceModel } from "./page-audience.mongo.ts";
import { MongoThreadsView, MongoThreadsWriter, threadsModel } from "./threads.view.mongo.ts";
import { MongoTokensView, MongoTokensWriter, tokensModel } from "./tokens.view.mongo.ts";
import { MongoAppsView, MongoAppsWriter, appsModel } from "./apps.view.mongo.ts";
import { MongoShareLinksView, MongoShareLinksWriter, shareLinksModel } from "./share-links.view.mongo.ts";
import { MongoNotificationsView, MongoNotificationsWriter, notificationsModel } from "./notifications.view.mongo.ts";
import { auditModel, MongoAuditView, MongoAuditWriter } from "./audit.view.mongo.ts";
import { MongoUsersView, MongoUsersWriter, usersModel } from "./users.view.mongo.ts";
import { MongoWebhooksView, MongoWebhooksWriter, webhooksModel } from "./webhooks.view.mongo.ts";
import { templatesModel, MongoTemplatesView, MongoTemplatesWriter } from "./templates.view.mongo.ts";
import { watchesModel, MongoWatchesView, MongoWatchesWriter } from "./watches.view.mongo.ts";
import {
  notificationSettingsModel,
  MongoNotificationSettingsView,
  MongoNotificationSettingsWriter,
} from "./notification-settings.view.mongo.ts";
import { mentionsModel, MongoMentionsView, MongoMentionsWriter } from "./mentions.view.mongo.ts";
import { directoryModel, MongoDirectoryView, MongoDirectoryWriter } from "./directory.view.mongo.ts";
import { MongoStoredBytesView, MongoStoredBytesWriter, storedBytesModel } from "./stored-bytes.view.mongo.ts";
import { MongoGroupsView, MongoGroupsWriter, groupsModel } from "./groups.view.mongo.ts";
import { MongoParkedEvents, parkedEventsModel } from "./parked-events.mongo.ts";

/** Bump whenever a read-model document or index changes shape: the projector then builds a new generation. */
export const MONGO_READ_MODEL_VERSION = 13;

const META = "read_model_meta";
const CHECKPOINT = "checkpoint";
/** How often a reader looks whether a replay switched the read models to a new generation. */
const GENERATION_REFRESH_MS = 1_000;

type MetaDoc = { _id: string; generation: number; version: number; batches?: number };
type CheckpointDoc = { _id: string; position: number };

const checkpointModel: MongoModel = { collections: [CHECKPOINT], indexes: [] };
const models = [
  checkpointModel,
  usersModel,
  tokensModel,
  appsModel,
  foldersModel,
  pagesModel,
  pageAudienceModel,
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

/** Every index the read models create at start, with the query it serves (listed in docs/operations/mongodb.md). */
export const mongoIndexes: readonly MongoIndex[] = models.flatMap((model) => model.indexes);

class GenerationHolder implements GenerationRef {
  constructor(public generation: Generation) {}

  current(): Generation {
    return this.generation;
  }
}

const meta = (db: Db) => db.collection<MetaDoc>(META);
const activeMeta = (db: Db) => meta(db).findOne({ _id: "active" });

async function readCheckpoint(
  generation: Generation,
  options: { session?: MongoBatch["session"] } = {},
): Promise<number> {
  return (await generation.collection<CheckpointDoc>(CHECKPOINT).findOne({ _id: CHECKPOINT }, options))?.position ?? 0;
}

async function createIndexes(generation: Generation): Promise<void> {
  for (const model of models) {
    for (const name of model.collections) {
      const exists = await generation.db.listCollections({ name: generation.name(name) }, { nameOnly: true }).hasNext();
      if (!exists) await generation.db.createCollection(generation.name(name));
    }
  }
  for (const index of mongoIndexes) {
    await generation.collection(index.collection).createIndex(index.keys, {
      name: index.name,
      ...(index.unique ? { unique: true } : {}),
      ...(index.partial ? { partialFilterExpression: index.partial } : {}),
    });
  }
}

async function dropGeneration(generation: Generation): Promise<void> {
  for (const model of models)
    for (const name of model.collections)
      await generation
        .collection(name)
        .drop()
        .catch(() => false);
}

/** Transactions need a replica set (or a sharded cluster); a standalone server has none. */
export async function supportsTransactions(db: Db): Promise<boolean> {
  const hello = await db.admin().command({ hello: 1 });
  return typeof hello.setName === "string" || hello.msg === "isdbgrid";
}

export class MongoReadStore implements ReadStore {
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
  private readonly refresher: NodeJS.Timeout;

  private constructor(
    private readonly db: Db,
    private readonly holder: GenerationHolder,
    private readonly ownsClient: boolean,
    options: { accessContextCache?: CacheMetrics },
  ) {
    this.users = new MongoUsersView(holder);
    this.tokens = new MongoTokensView(holder);
    this.apps = new MongoAppsView(holder);
    this.folders = new MongoFoldersView(holder);
    this.pages = new MongoPagesView(holder, new MongoPageAudience(holder));
    this.access = new MongoAccessView(holder, options.accessContextCache);
    this.threads = new MongoThreadsView(holder);
    this.invitations = new MongoInvitationsView(holder);
    this.images = new MongoImagesView(holder);
    this.attachments = new MongoAttachmentsView(holder);
    this.history = new MongoHistoryView(holder);
    this.webhooks = new MongoWebhooksView(holder);
    this.links = new MongoLinksView(holder);
    this.trash = new MongoTrashView(holder);
    this.shareLinks = new MongoShareLinksView(holder);
    this.storedBytes = new MongoStoredBytesView(holder);
    this.groups = new MongoGroupsView(holder);
    this.templates = new MongoTemplatesView(holder);
    this.watches = new MongoWatchesView(holder);
    this.notificationSettings = new MongoNotificationSettingsView(holder);
    this.mentions = new MongoMentionsView(holder);
    this.directory = new MongoDirectoryView(holder);
    this.notifications = new MongoNotificationsView(holder);
    this.audit = new MongoAuditView(holder);
    this.refresher = setInterval(() => void this.refresh().catch(() => undefined), GENERATION_REFRESH_MS);
    this.refresher.unref();
  }

  /** Reads the active generation of `db`'s read models (before the projector's first start: none yet, all empty). */
  static async open(
    db: Db,
    options: { ownsClient?: boolean; accessContextCache?: CacheMetrics } = {},
  ): Promise<MongoReadStore> {
    const active = await activeMeta(db);
    return new MongoReadStore(
      db,
      new GenerationHolder(new Generation(db, active?.generation ?? 0)),
      options.ownsClient ?? false,
      options,
    );
  }

  private async refresh(): Promise<void> {
    const active = await activeMeta(this.db);
    if (active && active.generation !== this.holder.generation.number)
      this.holder.generation = new Generation(this.db, active.generation);
  }

  async checkpoint(): Promise<number> {
    return readCheckpoint(this.holder.current());
  }

  async ping(): Promise<boolean> {
    const answer = await this.db.command({ ping: 1 });
    return answer.ok === 1;
  }

  async parkedEvents(): Promise<number> {
    return new MongoParkedEvents(this.holder).count();
  }

  async close(): Promise<void> {
    clearInterval(this.refresher);
    if (this.ownsClient) await this.db.client.close();
  }
}

export class ReadModelsSwitchedError extends Error {
  constructor(generation: number) {
    super(`a replay switched the read models to generation ${generation}; projection continues from its checkpoint`);
  }
}

export class MongoProjectionStore implements ProjectionStore<MongoBatch> {
  readonly writers: ProjectionWriters<MongoBatch>;
  readonly parked: MongoParkedEvents;
  /** The per-user page listing: writers mark what changed, each batch recomputes it before its checkpoint moves. */
  private readonly audience: MongoPageAudience;

  private constructor(
    private readonly db: Db,
    private readonly holder: GenerationHolder,
    private readonly transactions: boolean,
    /** A replay's store builds a generation that is not active yet and never follows a switch. */
    private readonly building: boolean,
    private readonly ownsClient: boolean,
  ) {
    this.audience = new MongoPageAudience(holder);
    this.writers = {
      users: new MongoUsersWriter(holder),
      tokens: new MongoTokensWriter(holder),
      apps: new MongoAppsWriter(holder),
      folders: new MongoFoldersWriter(holder),
      pages: new MongoPagesWriter(holder, this.audience),
      access: new MongoAccessWriter(holder, this.audience),
      threads: new MongoThreadsWriter(holder),
      invitations: new MongoInvitationsWriter(holder),
      images: new MongoImagesWriter(holder),
      attachments: new MongoAttachmentsWriter(holder),
      history: new MongoHistoryWriter(holder),
      webhooks: new MongoWebhooksWriter(holder),
      links: new MongoLinksWriter(holder),
      trash: new MongoTrashWriter(holder),
      shareLinks: new MongoShareLinksWriter(holder),
      storedBytes: new MongoStoredBytesWriter(holder),
      groups: new MongoGroupsWriter(holder),
      templates: new MongoTemplatesWriter(holder),
      watches: new MongoWatchesWriter(holder),
      notificationSettings: new MongoNotificationSettingsWriter(holder),
      mentions: new MongoMentionsWriter(holder),
      directory: new MongoDirectoryWriter(holder),
      notifications: new MongoNotificationsWriter(holder),
      audit: new MongoAuditWriter(holder),
    };
    this.parked = new MongoParkedEvents(holder);
  }

  /**
   * The live projector's store: the active generation, created with its indexes when there is none. Read models
   * laid out by another MONGO_READ_MODEL_VERSION are never dropped or overwritten here: an older layout is
   * replayed into the next generation first (openLiveProjectionStore), and a newer one belongs to a newer
   * release, so both refuse with ReadModelLayoutChangedError.
   */
  static async open(db: Db, options: { ownsClient?: boolean } = {}): Promise<MongoProjectionStore> {
    const active = await activeMeta(db);
    if (active && active.version !== MONGO_READ_MODEL_VERSION)
      throw new ReadModelLayoutChangedError(active.version, MONGO_READ_MODEL_VERSION);
    const generation = new Generation(db, active?.generation ?? 1);
    await createIndexes(generation);
    if (!active)
      await meta(db).updateOne(
        { _id: "active" },
        { $setOnInsert: { generation: generation.number, version: MONGO_READ_MODEL_VERSION } },
        { upsert: true },
      );
    return new MongoProjectionStore(
      db,
      new GenerationHolder(generation),
      await supportsTransactions(db),
      false,
      options.ownsClient ?? false,
    );
  }

  /**
   * The active generation when it was laid out by an older MONGO_READ_MODEL_VERSION (to replay before opening);
   * null when current, newer (open() then refuses) or absent.
   */
  static async activeLayoutOutdated(db: Db): Promise<{ generation: number; version: number } | null> {
    const active = await activeMeta(db);
    return active && active.version < MONGO_READ_MODEL_VERSION
      ? { generation: active.generation, version: active.version }
      : null;
  }

  /** A replay's store: the next generation, emptied and indexed, not active until activate(). */
  static async openNextGeneration(db: Db, options: { ownsClient?: boolean } = {}): Promise<MongoProjectionStore> {
    const active = await activeMeta(db);
    const generation = new Generation(db, (active?.generation ?? 0) + 1);
    await dropGeneration(generation);
    await createIndexes(generation);
    return new MongoProjectionStore(
      db,
      new GenerationHolder(generation),
      await supportsTransactions(db),
      true,
      options.ownsClient ?? false,
    );
  }

  get generation(): number {
    return this.holder.current().number;
  }

  /** Makes this store's generation the one readers and the projector use; returns the generation it replaced. */
  async activate(): Promise<number | null> {
    const previous = await activeMeta(this.db);
    // An older release's replay never takes read models over from a newer layout.
    if (previous && previous.version > MONGO_READ_MODEL_VERSION)
      throw new ReadModelLayoutChangedError(previous.version, MONGO_READ_MODEL_VERSION);
    await meta(this.db).updateOne(
      { _id: "active" },
      { $set: { generation: this.generation, version: MONGO_READ_MODEL_VERSION } },
      { upsert: true, writeConcern: { w: "majority" } },
    );
    return previous ? previous.generation : null;
  }

  /** Drops an old generation's collections (after a switch, once readers have moved on). */
  async dropGeneration(number: number): Promise<void> {
    if (number === this.generation) throw new Error("refusing to drop the generation in use");
    await dropGeneration(new Generation(this.db, number));
  }

  async checkpoint(): Promise<number> {
    return readCheckpoint(this.holder.current());
  }

  async applyBatch(position: number | null, work: (tx: MongoBatch) => Promise<void>): Promise<void> {
    if (!this.building) {
      const active = await activeMeta(this.db);
      if (active && active.version !== MONGO_READ_MODEL_VERSION)
        throw new ReadModelLayoutChangedError(active.version, MONGO_READ_MODEL_VERSION);
      if (active && active.generation !== this.generation) {
        this.holder.generation = new Generation(this.db, active.generation);
        throw new ReadModelsSwitchedError(active.generation);
      }
    }
    const checkpoints = this.holder.current().collection<CheckpointDoc>(CHECKPOINT);
    if (!this.transactions) {
      const tx = new MongoBatch(undefined);
      await work(tx);
      await this.audience.settle(tx);
      if (position !== null) await checkpoints.updateOne({ _id: CHECKPOINT }, { $set: { position } }, { upsert: true });
      return;
    }
    // Primary reads and majority writes whatever MONGODB_URL says: a transaction refuses any other read
    // preference, and a batch must not be acknowledged before it is durable.
    const started = performance.now();
    const session = this.db.client.startSession({
      defaultTransactionOptions: {
        readPreference: ReadPreference.primary,
        readConcern: { level: "snapshot" },
        writeConcern: { w: "majority" },
      },
    });
    try {
      session.startTransaction({
        readPreference: ReadPreference.primary,
        readConcern: { level: "snapshot" },
        writeConcern: { w: "majority" },
      });
      if (!this.building) {
        // The fence: inside the transaction, the batch touches the active meta document only while it still names
        // this generation and this release's layout. A switch (activate) committed first leaves nothing to match,
        // and one racing this batch conflicts with it, so a batch never commits into a generation that was
        // switched away from (and is dropped 5 s later), never re-creates its collections, and never writes this
        // layout into a generation a newer release's replay laid out (this projector then stops instead).
        const fenced = await meta(this.db).updateOne(
          { _id: "active", generation: this.generation, version: MONGO_READ_MODEL_VERSION },
          { $inc: { batches: 1 } },
          { session },
        );
        if (fenced.matchedCount === 0) {
          const active = await activeMeta(this.db);
          if (active && active.version !== MONGO_READ_MODEL_VERSION)
            throw new ReadModelLayoutChangedError(active.version, MONGO_READ_MODEL_VERSION);
          if (active) this.holder.generation = new Generation(this.db, active.generation);
          throw new ReadModelsSwitchedError(active?.generation ?? this.generation);
        }
      }
      const tx = new MongoBatch(session);
      await work(tx);
      await this.audience.settle(tx);
      if (position !== null)
        await checkpoints.updateOne({ _id: CHECKPOINT }, { $set: { position } }, { upsert: true, session });
      await session.commitTransaction();
    } catch (error) {
      if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
      throw batchRefusalOf(error, performance.now() - started) ?? error;
    } finally {
      await session.endSession();
    }
  }

  async beginRebuild(): Promise<void> {
    const generation = this.holder.current();
    for (const model of models) for (const name of model.collections) await generation.collection(name).deleteMany({});
  }

  /** Indexes stay through a rebuild: the writers look documents up through several of them. */
  async endRebuild(): Promise<void> {}

  async close(): Promise<void> {
    if (this.ownsClient) await this.db.client.close();
  }
}

/** Connects to MONGODB_URL's database (the one its path names). */
export async function connectMongo(url: string): Promise<Db> {
  const client = await MongoClient.connect(url);
  return client.db();
}
