// The audit trail in MongoDB: one document per entry (its _id the event's id), read newest first through an
// index per filter (none, actor, kind, both), each ordered by (at, position); a target's first entry is found
// through (targetType, targetId, position).
import type { Filter } from "mongodb";
import { z } from "zod";
import { auditKindSchema, auditTargetTypeSchema, type AuditTargetType } from "../../audit/audit-entry.ts";
import type { AuditQuery, AuditRecord, AuditView, AuditWriter } from "../../audit/audit.view.ts";
import { recordOf, type GenerationRef, type MongoBatch, type MongoModel } from "./mongo-batch.ts";

/** The workspace an audit entry belongs to. */
const workspaceDocSchema = z.object({ workspaceId: z.string() });

const auditSchema = z.object({
  _id: z.string(),
  workspaceId: z.string(),
  kind: auditKindSchema,
  actorId: z.string(),
  tokenId: z.string().nullable(),
  appId: z.string().nullable(),
  at: z.string(),
  targetType: auditTargetTypeSchema,
  targetId: z.string(),
  detail: z.unknown(),
  position: z.number().int(),
});
type AuditDoc = z.infer<typeof auditSchema>;

const NEWEST = { at: -1, position: -1 } as const;

export const auditModel: MongoModel = {
  collections: ["audit"],
  indexes: [
    {
      collection: "audit",
      name: "audit_newest",
      keys: { workspaceId: 1, ...NEWEST },
      serves: "GET /audit: a workspace's trail, newest first (and filtered by instants)",
    },
    {
      collection: "audit",
      name: "audit_actor",
      keys: { workspaceId: 1, actorId: 1, ...NEWEST },
      serves: "GET /audit?actorId=: one actor's entries, newest first",
    },
    {
      collection: "audit",
      name: "audit_kind",
      keys: { workspaceId: 1, kind: 1, ...NEWEST },
      serves: "GET /audit?kind=: one kind's entries, newest first",
    },
    {
      collection: "audit",
      name: "audit_actor_kind",
      keys: { workspaceId: 1, actorId: 1, kind: 1, ...NEWEST },
      serves: "GET /audit?actorId=&kind=: one actor's entries of one kind, newest first",
    },
    {
      collection: "audit",
      name: "audit_target",
      keys: { targetType: 1, targetId: 1, position: 1 },
      serves: "projector: the workspace of a token's, app's, webhook's or invitation's first entry",
    },
  ],
};

const audit = (ref: GenerationRef) => ref.current().collection<AuditDoc>("audit");

export class MongoAuditWriter implements AuditWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async put(tx: MongoBatch, { id, ...entry }: AuditRecord): Promise<void> {
    await audit(this.ref).replaceOne({ _id: id }, entry, { upsert: true, ...tx.options });
  }

  async workspaceOf(tx: MongoBatch, targetType: AuditTargetType, targetId: string): Promise<string | null> {
    const doc = await audit(this.ref).findOne(
      { targetType, targetId },
      { sort: { position: 1 }, projection: { workspaceId: 1 }, ...tx.options },
    );
    return doc ? workspaceDocSchema.parse(doc).workspaceId : null;
  }

  async forget(tx: MongoBatch, targetType: AuditTargetType, targetId: string): Promise<void> {
    await audit(this.ref).deleteMany({ targetType, targetId }, tx.options);
  }
}

export class MongoAuditView implements AuditView {
  constructor(private readonly ref: GenerationRef) {}

  async list(query: AuditQuery): Promise<AuditRecord[]> {
    const range = {
      ...(query.after === null ? {} : { $gt: query.after }),
      ...(query.before === null ? {} : { $lt: query.before }),
    };
    const base: Filter<AuditDoc> = {
      workspaceId: query.workspaceId,
      ...(query.actorId === null ? {} : { actorId: query.actorId }),
      ...(query.kind === null ? {} : { kind: query.kind }),
      ...(query.after === null && query.before === null ? {} : { at: range }),
    };
    // Resuming below an entry is a rooted $or, each branch a full predicate bounded on the index.
    const from = query.from;
    const filter: Filter<AuditDoc> =
      from === null
        ? base
        : {
            $or: [
              { ...base, at: { ...range, $lt: lower(query.before, from.at) } },
              { ...base, at: { ...range, $eq: from.at }, position: { $lt: from.position } },
            ],
          };
    const docs = await audit(this.ref).find(filter).sort(NEWEST).limit(query.limit).toArray();
    return docs.map((doc) => recordOf(auditSchema, doc));
  }
}

/** The tighter of two exclusive upper bounds. */
const lower = (before: string | null, at: string): string => (before !== null && before < at ? before : at);
