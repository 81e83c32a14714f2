import { z } from "zod";
import { invitedAccessSchema, type DeliveryStatus, type InvitationStatus } from "../../sharing/invitation.decider.ts";
import type {
  InvitationRecord,
  InvitationsView,
  InvitationsWriter,
  InvitationTargetType,
} from "../../sharing/invitations.view.ts";
import { recordOf, type GenerationRef, type MongoBatch, type MongoModel } from "./mongo-batch.ts";

const invitationSchema = z.object({
  _id: z.string(),
  email: z.string(),
  access: invitedAccessSchema,
  invitedBy: z.string(),
  status: z.enum(["pending", "accepted", "expired", "cancelled"]) satisfies z.ZodType<InvitationStatus>,
  deliveryStatus: z.enum(["pending", "sent", "failed"]) satisfies z.ZodType<DeliveryStatus>,
  expiresAt: z.string(),
  createdAt: z.string(),
  createdPosition: z.number(),
  lastResentAt: z.string().nullable(),
});
type InvitationDoc = z.input<typeof invitationSchema>;

export const invitationsModel: MongoModel = {
  collections: ["invitations"],
  indexes: [
    {
      collection: "invitations",
      name: "invitations_target",
      keys: { "access.targetType": 1, "access.targetId": 1, email: 1, createdPosition: 1 },
      serves: "pending invitations to a page, folder or workspace; the newest invitation of an address to a target",
    },
    {
      collection: "invitations",
      name: "invitations_email",
      keys: { email: 1, status: 1, createdPosition: 1 },
      serves: "the pending invitations a registering address accepts",
    },
    {
      collection: "invitations",
      name: "invitations_delivery",
      keys: { status: 1, deliveryStatus: 1, createdPosition: 1 },
      serves: "the notifier's invitations still to deliver",
    },
  ],
};

const invitations = (ref: GenerationRef) => ref.current().collection<InvitationDoc>("invitations");
const toRecord = (doc: unknown): InvitationRecord => recordOf(invitationSchema, doc);
const byAge = { createdPosition: 1 } as const;

export class MongoInvitationsWriter implements InvitationsWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async get(tx: MongoBatch, id: string): Promise<InvitationRecord | null> {
    const doc = await invitations(this.ref).findOne({ _id: id }, tx.options);
    return doc ? toRecord(doc) : null;
  }

  async put(tx: MongoBatch, invitation: InvitationRecord): Promise<void> {
    const { id, ...rest } = invitation;
    await invitations(this.ref).replaceOne({ _id: id }, rest, { upsert: true, ...tx.options });
  }

  async removeTarget(tx: MongoBatch, targetType: InvitationTargetType, targetId: string): Promise<void> {
    await invitations(this.ref).deleteMany(
      { "access.targetType": targetType, "access.targetId": targetId },
      tx.options,
    );
  }

  async forgetAddress(tx: MongoBatch, email: string): Promise<void> {
    await invitations(this.ref).updateMany({ email }, { $set: { email: "" } }, tx.options);
  }
}

export class MongoInvitationsView implements InvitationsView {
  constructor(private readonly ref: GenerationRef) {}

  async get(id: string): Promise<InvitationRecord | null> {
    const doc = await invitations(this.ref).findOne({ _id: id });
    return doc ? toRecord(doc) : null;
  }

  async pendingFor(targetType: InvitationTargetType, targetId: string, now: string): Promise<InvitationRecord[]> {
    const filter = {
      "access.targetType": targetType,
      "access.targetId": targetId,
      status: "pending" as const,
      expiresAt: { $gt: now },
    };
    return (await invitations(this.ref).find(filter).sort(byAge).toArray()).map(toRecord);
  }

  async latestFor(targetType: InvitationTargetType, targetId: string, email: string): Promise<InvitationRecord | null> {
    const doc = await invitations(this.ref).findOne(
      { "access.targetType": targetType, "access.targetId": targetId, email },
      { sort: { createdPosition: -1 } },
    );
    return doc ? toRecord(doc) : null;
  }

  async pendingForEmail(email: string): Promise<InvitationRecord[]> {
    return (await invitations(this.ref).find({ email, status: "pending" }).sort(byAge).toArray()).map(toRecord);
  }

  /** Served by invitations_email (its first key). */
  async toAddress(email: string): Promise<InvitationRecord[]> {
    return (await invitations(this.ref).find({ email }).sort(byAge).toArray()).map(toRecord);
  }

  async undelivered(): Promise<InvitationRecord[]> {
    return (
      await invitations(this.ref).find({ status: "pending", deliveryStatus: "pending" }).sort(byAge).toArray()
    ).map(toRecord);
  }
}
