// The watches read model in MongoDB: one document per (entity, user), `_id` made of the three so a watch is one
// upsert. The fan-out reads one entity's watchers in user-id order through watches_fanout.
import { z } from "zod";
import type { WatchedKind, WatchRecord, WatchState, WatchesView, WatchesWriter } from "../../watching/watches.view.ts";
import type { GenerationRef, MongoBatch, MongoModel } from "./mongo-batch.ts";

const watchSchema = z.object({
  _id: z.string(),
  kind: z.enum(["page", "folder"]),
  entityId: z.string(),
  userId: z.string(),
  state: z.enum(["watching", "unwatched"]),
  auto: z.boolean(),
  position: z.number(),
});
type WatchDoc = z.infer<typeof watchSchema>;

export const watchesModel: MongoModel = {
  collections: ["watches"],
  indexes: [
    {
      collection: "watches",
      name: "watches_fanout",
      keys: { kind: 1, entityId: 1, state: 1, userId: 1 },
      serves:
        "a notifier's fan-out: one entity's watchers in user-id order, a batch at a time; removing a purged entity's rows",
    },
    {
      collection: "watches",
      name: "watches_of_user",
      keys: { userId: 1, kind: 1, state: 1, entityId: 1 },
      serves: "whether a user watches one of a page's ancestor folders",
    },
  ],
};

const watches = (ref: GenerationRef) => ref.current().collection<WatchDoc>("watches");
const idOf = (kind: WatchedKind, entityId: string, userId: string): string => `${kind}:${entityId}:${userId}`;

/** One batch of an entity's watchers in user-id order, through watches_fanout. */
async function watchersOf(
  ref: GenerationRef,
  query: { kind: WatchedKind; entityId: string; afterUserId: string | null; limit: number },
  options: MongoBatch["options"],
): Promise<string[]> {
  const { kind, entityId, afterUserId, limit } = query;
  const docs = await watches(ref)
    .find(
      { kind, entityId, state: "watching", userId: { $gt: afterUserId ?? "" } },
      { projection: { userId: 1 }, ...options },
    )
    .sort({ userId: 1 })
    .limit(limit)
    .toArray();
  return docs.map((doc) => doc.userId);
}

export class MongoWatchesWriter implements WatchesWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async stateOf(tx: MongoBatch, kind: WatchedKind, entityId: string, userId: string): Promise<WatchState | null> {
    const doc = await watches(this.ref).findOne({ _id: idOf(kind, entityId, userId) }, tx.options);
    return doc ? watchSchema.parse(doc).state : null;
  }

  async watchersOf(
    tx: MongoBatch,
    kind: WatchedKind,
    entityId: string,
    afterUserId: string | null,
    limit: number,
  ): Promise<string[]> {
    return watchersOf(this.ref, { kind, entityId, afterUserId, limit }, tx.options);
  }

  async set(tx: MongoBatch, record: WatchRecord): Promise<void> {
    const { kind, entityId, userId } = record;
    await watches(this.ref).replaceOne(
      { _id: idOf(kind, entityId, userId) },
      { ...record },
      { upsert: true, ...tx.options },
    );
  }

  async watchAutomatically(tx: MongoBatch, record: Omit<WatchRecord, "state" | "auto">): Promise<void> {
    const { kind, entityId, userId } = record;
    await watches(this.ref).updateOne(
      { _id: idOf(kind, entityId, userId) },
      { $setOnInsert: { ...record, state: "watching", auto: true } },
      { upsert: true, ...tx.options },
    );
  }

  async removeEntity(tx: MongoBatch, kind: WatchedKind, entityId: string): Promise<void> {
    await watches(this.ref).deleteMany({ kind, entityId }, tx.options);
  }
}

export class MongoWatchesView implements WatchesView {
  constructor(private readonly ref: GenerationRef) {}

  async stateOf(kind: WatchedKind, entityId: string, userId: string): Promise<WatchState | null> {
    const doc = await watches(this.ref).findOne({ _id: idOf(kind, entityId, userId) });
    return doc ? watchSchema.parse(doc).state : null;
  }

  async watchedFolders(userId: string, folderIds: readonly string[]): Promise<string[]> {
    if (folderIds.length === 0) return [];
    const docs = await watches(this.ref)
      .find(
        { userId, kind: "folder", state: "watching", entityId: { $in: [...folderIds] } },
        { projection: { entityId: 1 } },
      )
      .toArray();
    return docs.map((doc) => doc.entityId);
  }

  async watchersOf(kind: WatchedKind, entityId: string, afterUserId: string | null, limit: number): Promise<string[]> {
    return watchersOf(this.ref, { kind, entityId, afterUserId, limit }, {});
  }
}
