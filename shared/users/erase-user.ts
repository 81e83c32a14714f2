// Erasing an account (DELETE /me, `npm run erase`): the person's identity goes everywhere, for good. In order,
// each step safe to run again, so an erasure cut short is completed by asking again (`npm run erase`: the
// account refuses its own requests once the erasure has started):
// 1. UserErasureStarted: from then on the account's profile changes and sessions are refused by its decider,
//    and, once the read models show it (waited for when a request asks), every request of theirs; so nothing
//    of theirs is written under a key of theirs, nor a page made, after the keys below are destroyed;
// 2. their API tokens are revoked, their webhooks deleted, and they leave other workspaces and give up their
//    grants on other people's pages and folders;
// 3. their own workspace (pages, folders, live or in the trash) is deleted and purged, with everything on it;
// 4. their address is freed for another account (EmailReleased);
// 5. mail kept in the outbox that names them, and audit copies of the read models that mention them, are deleted;
// 6. the keys their address as invitations named it, and their email, name, picture, tokens' names, webhooks'
//    URLs and what their Idempotency-Keys recorded were sealed under are destroyed: every copy in the log, its
//    replays and backups of the log is unreadable from then on;
// 7. UserErased: the read models drop their tokens and webhooks;
// 8. once the read models show all of it, the stores' journals (SQLite's write-ahead logs) are emptied: when the
//    erasure answers, no file holds what it erased.
// Comments they wrote on others' pages stay, shown by an erased user.
import type { CommandContext } from "../commands/command-context.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import { purgeWorkspace, unlessGone } from "../erasure/purge-workspace.ts";
import { subjects, type KeyStore } from "../erasure/key-store.port.ts";
import { AppError } from "../errors/app-error.ts";
import { eventGuard, parseRecorded } from "../events.ts";
import { StreamConflictError, type EventStore, type RecordedEvent } from "../event-store/event-store.port.ts";
import { toNewEvents } from "../commands/new-events.ts";
import { groupIdSchema, tokenIdSchema, userIdSchema, type UserId } from "../kernel/ids.ts";
import { groupCommands } from "../groups/group.commands.ts";
import { entityAccessCommands, workspaceCommands } from "../sharing/sharing.commands.ts";
import { webhookIdSchema } from "../webhooks/webhook.decider.ts";
import type { SentMail } from "../mail/sent-mail.port.ts";
import type { ReadModelCopies } from "../erasure/read-model-copies.port.ts";
import type { StoreJournals } from "../erasure/store-journals.port.ts";
import { tokenCommands } from "../tokens/token.commands.ts";
import { webhookCommands } from "../webhooks/webhook.commands.ts";
import { ERASED_EMAIL, ERASED_USER_NAME } from "../erasure/erased-values.ts";
import { userCommands } from "./user.commands.ts";
import {
  emailReservationEventSchemas,
  emailReservationStream,
  normalizeEmail,
  reservationHolder,
  type EmailReservationEvent,
} from "./user.decider.ts";

export interface ErasurePorts extends WritePorts {
  readonly keys: KeyStore;
  /** The keyed hash an address's key is named by. */
  readonly addressHash: (address: string) => string;
  /** Kept copies of sent mail, when the deployment keeps any. */
  readonly sentMail: SentMail | null;
  /** The audit copies of the read models, deleted when they mention the account; null where there are none. */
  readonly readModelCopies: ReadModelCopies | null;
  /**
   * Waits, within a bound, until the read models show the log up to `position` (the command API's projection
   * watch); absent where nothing can wait (the operator's tool), where the account is refused as soon as the
   * running projector, or the next start, projects the erasure's start.
   */
  readonly awaitReadModels?: (position: number) => Promise<unknown>;
  /** The stores' journals, emptied once the read models show the erasure; absent where nothing keeps one. */
  readonly journals?: StoreJournals;
}

const WEBHOOK_BATCH = 100;

const isReservationEvent = eventGuard<EmailReservationEvent>(emailReservationEventSchemas);

const holderOf = (events: readonly RecordedEvent[]): string | null =>
  reservationHolder(events.map((recorded) => parseRecorded(recorded).event).filter(isReservationEvent));

/** The account that holds the address now, from its reservation stream: the log, not the read models. */
export async function accountHolding(eventStore: EventStore, email: string): Promise<UserId | null> {
  const holder = holderOf((await eventStore.read(emailReservationStream(email))).events);
  return holder === null ? null : userIdSchema.parse(holder);
}

async function releaseAddress(
  ports: ErasurePorts,
  email: string,
  userId: UserId,
  context: CommandContext,
): Promise<number | null> {
  const stream = emailReservationStream(email);
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const { revision, events } = await ports.eventStore.read(stream);
    if (holderOf(events) !== userId) return null;
    try {
      return (
        await ports.eventStore.append(
          stream,
          toNewEvents([{ type: "EmailReleased", data: { userId } }], context),
          revision,
        )
      ).position;
    } catch (error) {
      if (!(error instanceof StreamConflictError)) throw error;
    }
  }
  throw new AppError("conflict", "the address changed hands while it was being released; retry");
}

/**
 * Erases the account, read from its own stream (not the read models, which drop it when its erasure starts);
 * answers the position of the last event appended.
 */
export async function eraseUser(
  ports: ErasurePorts,
  userId: UserId,
  context: CommandContext,
): Promise<{ position: number | null }> {
  const account = await userCommands.load(ports.eventStore, userId);
  if (!account.registered) throw new AppError("not_found", "user not found");
  let position: number | null = null;
  const along = (next: number | null) => {
    if (next !== null) position = next;
  };
  along(
    (
      await userCommands.handle(
        ports.eventStore,
        userId,
        { type: "StartErasure", userId, now: context.now.toISOString() },
        context,
      )
    ).position,
  );
  // The read models then refuse the account, and show every page it made before: what the steps below list.
  await ports.awaitReadModels?.(await ports.eventStore.headPosition());

  for (const token of await ports.views.tokens.listForUser(userId)) {
    if (token.revokedAt !== null) continue;
    along(
      (
        await tokenCommands.handle(
          ports.eventStore,
          tokenIdSchema.parse(token.id),
          { type: "RevokeToken", tokenId: tokenIdSchema.parse(token.id), userId },
          context,
        )
      ).position,
    );
  }
  let before: number | null = null;
  for (;;) {
    const webhooks = await ports.views.webhooks.listForOwner(userId, before, WEBHOOK_BATCH);
    for (const webhook of webhooks) {
      const webhookId = webhookIdSchema.parse(webhook.id);
      along(
        (
          await webhookCommands.handle(
            ports.eventStore,
            webhookId,
            { type: "DeleteWebhook", webhookId, ownerId: userId },
            context,
          )
        ).position,
      );
    }
    const last = webhooks.at(-1);
    if (webhooks.length < WEBHOOK_BATCH || !last) break;
    before = last.position;
  }
  const access = await ports.views.access.contextFor(userId);
  for (const ownerId of access.workspaceRoles.keys()) {
    const owner = userIdSchema.parse(ownerId);
    along(
      await unlessGone(() =>
        workspaceCommands.handle(
          ports.eventStore,
          owner,
          { type: "LeaveWorkspace", ownerId: owner, memberId: userId },
          context,
        ),
      ),
    );
  }
  for (const id of access.groupIds) {
    const groupId = groupIdSchema.parse(id);
    along(
      await unlessGone(() =>
        groupCommands.handle(ports.eventStore, groupId, { type: "LeaveGroup", groupId, memberId: userId }, context),
      ),
    );
  }
  const grants = [
    ...[...access.folderGrants.keys()].map((id) => ({ type: "folder" as const, id })),
    ...[...access.pageGrants.keys()].map((id) => ({ type: "page" as const, id })),
  ];
  for (const entity of grants) {
    along(
      await unlessGone(() =>
        entityAccessCommands.handle(
          ports.eventStore,
          entity,
          { type: "RevokeAccess", entity, userId, actor: { id: userId, permission: "view" } },
          context,
        ),
      ),
    );
  }
  along(await purgeWorkspace(ports, userId, context));
  // Read as erased when an erasure cut short destroyed the keys already: the address's and its mail went first.
  const email = account.email === ERASED_EMAIL ? null : normalizeEmail(account.email);
  const needles = [
    ...(email === null ? [] : [email]),
    ...(account.name === ERASED_USER_NAME || account.name === "" ? [] : [account.name]),
  ];
  if (email !== null) along(await releaseAddress(ports, email, userId, context));
  if (needles.length > 0) await ports.sentMail?.eraseNaming(needles);
  // A copy that holds anything of theirs, their own workspace included, holds their id (or, invited before they
  // registered, their address).
  await ports.readModelCopies?.eraseMentioning([userId, ...(email === null ? [] : [email])]);
  if (email !== null) await ports.keys.destroy(subjects.address(ports.addressHash(email)));
  await ports.keys.destroy(subjects.user(userId));
  along(
    (
      await userCommands.handle(
        ports.eventStore,
        userId,
        { type: "EraseUser", userId, now: context.now.toISOString() },
        context,
      )
    ).position,
  );
  if (ports.awaitReadModels && ports.journals) {
    await ports.awaitReadModels(await ports.eventStore.headPosition());
    await ports.journals.empty();
  }
  return { position };
}
