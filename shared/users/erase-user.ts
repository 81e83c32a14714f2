// Erasing an account (DELETE /me, `npm run erase`): the person's identity goes everywhere, for good. In order,
// each step safe to run again, so an erasure cut short is completed by asking again:
// 1. their API tokens are revoked, their webhooks deleted, and they leave other workspaces and give up their
//    grants on other people's pages and folders;
// 2. their own workspace (pages, folders, live or in the trash) is deleted and purged, with everything on it;
// 3. their address is freed for another account (EmailReleased);
// 4. the keys their email, name and picture (and what their Idempotency-Keys recorded), and their address as
//    invitations named it, were sealed under are destroyed: every copy in the log, its replays and backups of
//    the log is unreadable from then on;
// 5. mail kept in the outbox that names them is deleted;
// 6. UserErased: the read models drop their record and their address from invitations sent to it.
// Comments they wrote on others' pages stay, shown by an erased user.
import type { CommandContext } from "../commands/command-context.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import { purgeWorkspace, unlessGone } from "../erasure/purge-workspace.ts";
import { subjects, type KeyStore } from "../erasure/key-store.port.ts";
import { AppError } from "../errors/app-error.ts";
import { eventGuard, parseRecorded } from "../events.ts";
import { StreamConflictError } from "../event-store/event-store.port.ts";
import { toNewEvents } from "../commands/new-events.ts";
import { tokenIdSchema, userIdSchema, type UserId } from "../kernel/ids.ts";
import { entityAccessCommands, workspaceCommands } from "../sharing/sharing.commands.ts";
import { webhookIdSchema } from "../webhooks/webhook.decider.ts";
import type { SentMail } from "../mail/sent-mail.port.ts";
import { tokenCommands } from "../tokens/token.commands.ts";
import { webhookCommands } from "../webhooks/webhook.commands.ts";
import { userCommands } from "./user.commands.ts";
import { emailReservationEventSchemas, emailReservationStream, normalizeEmail, reservationHolder, type EmailReservationEvent } from "./user.decider.ts";

export interface ErasurePorts extends WritePorts {
  readonly keys: KeyStore;
  /** The keyed hash an address's key is named by. */
  readonly addressHash: (address: string) => string;
  /** Kept copies of sent mail, when the deployment keeps any. */
  readonly sentMail: SentMail | null;
}

const WEBHOOK_BATCH = 100;

const isReservationEvent = eventGuard<EmailReservationEvent>(emailReservationEventSchemas);

async function releaseAddress(ports: ErasurePorts, email: string, userId: UserId, context: CommandContext): Promise<number | null> {
  const stream = emailReservationStream(email);
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const { revision, events } = await ports.eventStore.read(stream);
    if (reservationHolder(events.map((recorded) => parseRecorded(recorded).event).filter(isReservationEvent)) !== userId) return null;
    try {
      return (await ports.eventStore.append(stream, toNewEvents([{ type: "EmailReleased", data: { userId } }], context), revision)).position;
    } catch (error) {
      if (!(error instanceof StreamConflictError)) throw error;
    }
  }
  throw new AppError("conflict", "the address changed hands while it was being released; retry");
}

/** Erases the account; answers the position of the last event appended. */
export async function eraseUser(ports: ErasurePorts, userId: UserId, context: CommandContext): Promise<{ position: number | null }> {
  const user = await ports.views.users.get(userId);
  if (!user) throw new AppError("not_found", "user not found");
  let position: number | null = null;
  const along = (next: number | null) => {
    if (next !== null) position = next;
  };

  for (const token of await ports.views.tokens.listForUser(userId)) {
    if (token.revokedAt !== null) continue;
    along((await tokenCommands.handle(ports.eventStore, tokenIdSchema.parse(token.id), { type: "RevokeToken", tokenId: tokenIdSchema.parse(token.id), userId }, context)).position);
  }
  let before: number | null = null;
  for (;;) {
    const webhooks = await ports.views.webhooks.listForOwner(userId, before, WEBHOOK_BATCH);
    for (const webhook of webhooks) {
      const webhookId = webhookIdSchema.parse(webhook.id);
      along((await webhookCommands.handle(ports.eventStore, webhookId, { type: "DeleteWebhook", webhookId, ownerId: userId }, context)).position);
    }
    const last = webhooks.at(-1);
    if (webhooks.length < WEBHOOK_BATCH || !last) break;
    before = last.position;
  }
  const access = await ports.views.access.contextFor(userId);
  for (const ownerId of access.workspaceRoles.keys()) {
    const owner = userIdSchema.parse(ownerId);
    along(await unlessGone(() => workspaceCommands.handle(ports.eventStore, owner, { type: "LeaveWorkspace", ownerId: owner, memberId: userId }, context)));
  }
  const grants = [...[...access.folderGrants.keys()].map((id) => ({ type: "folder" as const, id })), ...[...access.pageGrants.keys()].map((id) => ({ type: "page" as const, id }))];
  for (const entity of grants) {
    along(await unlessGone(() => entityAccessCommands.handle(ports.eventStore, entity, { type: "RevokeAccess", entity, userId, actor: { id: userId, permission: "view" } }, context)));
  }
  along(await purgeWorkspace(ports, userId, context));
  const email = normalizeEmail(user.email);
  along(await releaseAddress(ports, email, userId, context));
  await ports.keys.destroy(subjects.user(userId));
  await ports.keys.destroy(subjects.address(ports.addressHash(email)));
  await ports.sentMail?.eraseNaming([email, user.name]);
  along((await userCommands.handle(ports.eventStore, userId, { type: "EraseUser", userId, now: context.now.toISOString() }, context)).position);
  return { position };
}
