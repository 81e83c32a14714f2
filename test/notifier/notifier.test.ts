// One delivery attempt (an InvitationQueued or InvitationResent event) sends at most one email, whether the bus
// redelivers its message, two notifiers take it at once, or a restart recovers it. The event store is the real
// SQLite adapter; the mailer is an in-memory recorder of sends.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pino, type Logger } from "pino";
import { Notifier } from "../../services/notifier/notifier.ts";
import { rebuildReadModels } from "../../services/projector/rebuild.ts";
import { InProcessBus } from "../../shared/adapters/in-process/in-process.bus.ts";
import { SqliteEventStore } from "../../shared/adapters/sqlite/sqlite.event-store.ts";
import { SqliteProjectionStore, SqliteReadStore } from "../../shared/adapters/sqlite/sqlite.read-store.ts";
import type { BusMessage } from "../../shared/bus/bus.port.ts";
import { toBusMessage } from "../../shared/bus/integration-events.ts";
import { parseRecorded } from "../../shared/events.ts";
import { invitationIdSchema, userIdSchema, type InvitationId } from "../../shared/kernel/ids.ts";
import { MailNotSentError, type Mail, type Mailer } from "../../shared/mail/mailer.port.ts";
import {
  INVITATION_TTL_MS,
  invitationStream,
  type InvitationCommand,
} from "../../shared/sharing/invitation.decider.ts";
import { invitationCommands } from "../../shared/sharing/sharing.commands.ts";
import { tempDir } from "../support/temp-dir.ts";
import { until } from "../support/poll.ts";

/**
 * Remembers every send; `dropAcknowledgement` makes the next send fail after the mail went out, as SMTP can;
 * `refusals` are thrown, one per send, before anything leaves.
 */
class RecordingMailer implements Mailer {
  readonly sent: Mail[] = [];
  readonly refusals: Error[] = [];
  tries = 0;
  dropAcknowledgement = false;

  async send(mail: Mail): Promise<void> {
    this.tries += 1;
    const refusal = this.refusals.shift();
    if (refusal) throw refusal;
    this.sent.push(mail);
    if (this.dropAcknowledgement) {
      this.dropAcknowledgement = false;
      throw new Error("connection reset after DATA");
    }
  }
}

const logger = pino({ level: "silent" });
const owner = userIdSchema.parse(randomUUID());

let dir: { path: string; remove: () => Promise<void> };
let eventStore: SqliteEventStore;
let readStore: SqliteReadStore;
let mailer: RecordingMailer;
const closers: Array<() => Promise<void>> = [];

beforeEach(async () => {
  dir = await tempDir();
  eventStore = new SqliteEventStore(join(dir.path, "events.sqlite"), { pollMs: 50 });
  readStore = new SqliteReadStore(join(dir.path, "read-models.sqlite"));
  mailer = new RecordingMailer();
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await readStore.close();
  await eventStore.close();
  await dir.remove();
});

/** A notifier over its own connection to the shared event store file, as a second process would have. */
function notifier(
  options: { store?: SqliteEventStore; bus?: InProcessBus; clock?: () => Date; logger?: Logger } = {},
): Notifier {
  return new Notifier({
    bus: options.bus ?? new InProcessBus(),
    eventStore: options.store ?? eventStore,
    readModels: readStore,
    mailer,
    logger: options.logger ?? logger,
    clock: options.clock ?? (() => new Date()),
    retry: { tries: 3, firstDelayMs: 5 },
    leaseMs: 60_000,
    sweepIntervalMs: 0,
  });
}

function secondConnection(): SqliteEventStore {
  const store = new SqliteEventStore(join(dir.path, "events.sqlite"), { pollMs: 50 });
  closers.push(() => store.close());
  return store;
}

async function invitationCommand(command: InvitationCommand): Promise<void> {
  const context = { actorId: owner, correlationId: randomUUID(), now: new Date() };
  await invitationCommands.handle(eventStore, command.invitationId, command, context);
}

/** Queues an invitation to the owner's workspace and returns its latest attempt's bus message. */
async function queueInvitation(
  email = `${randomUUID()}@example.com`,
): Promise<{ invitationId: InvitationId; message: BusMessage }> {
  const invitationId = invitationIdSchema.parse(randomUUID());
  const access = { targetType: "workspace" as const, targetId: owner, permission: "viewer" as const };
  const now = new Date().toISOString();
  await invitationCommand({
    type: "InviteAddress",
    invitationId,
    email,
    access,
    actor: { id: owner, permission: "owner" },
    now,
    ttlMs: INVITATION_TTL_MS,
  });
  return { invitationId, message: await latestAttempt(invitationId) };
}

async function latestAttempt(invitationId: InvitationId): Promise<BusMessage> {
  const history = (await eventStore.read(invitationStream(invitationId))).events;
  const queuing = history
    .filter((recorded) => recorded.type === "InvitationQueued" || recorded.type === "InvitationResent")
    .at(-1);
  if (!queuing) throw new Error(`invitation ${invitationId} was never queued`);
  return toBusMessage(parseRecorded(queuing));
}

async function eventTypes(invitationId: InvitationId): Promise<string[]> {
  return (await eventStore.read(invitationStream(invitationId))).events.map((recorded) => recorded.type);
}

describe("one delivery attempt sends at most one email", () => {
  it("sends the email of a queued invitation once and records the attempt and its delivery", async () => {
    const { invitationId, message } = await queueInvitation();
    await notifier().deliver(message);
    expect(mailer.sent.map((mail) => mail.messageId)).toEqual([message.id]);
    expect(await eventTypes(invitationId)).toEqual([
      "InvitationQueued",
      "InvitationDeliveryStarted",
      "InvitationDelivered",
    ]);
  });

  it("sends nothing for a redelivered message, even when the first send failed after the mail went out", async () => {
    const { invitationId, message } = await queueInvitation();
    const bus = new InProcessBus(10);
    closers.push(() => bus.close());
    await notifier({ bus }).start();
    mailer.dropAcknowledgement = true;
    await bus.publish([message]);
    await until(() => mailer.sent.length > 0, "the first send");
    // What the bus does when a handler throws or its acknowledgement is lost: the same message once more.
    await notifier().deliver(message);
    expect(mailer.sent).toHaveLength(1);
    expect(await eventTypes(invitationId)).not.toContain("InvitationDelivered");
  });

  it("sends one email when two notifiers take the same message at once", async () => {
    const { invitationId, message } = await queueInvitation();
    await Promise.all([notifier().deliver(message), notifier({ store: secondConnection() }).deliver(message)]);
    expect(mailer.sent).toHaveLength(1);
    expect((await eventTypes(invitationId)).filter((type) => type === "InvitationDeliveryStarted")).toHaveLength(1);
  });

  it("sends a resend as a new attempt", async () => {
    const { invitationId, message } = await queueInvitation();
    await notifier().deliver(message);
    await invitationCommand({ type: "ResendInvitation", invitationId, canManage: true, now: new Date().toISOString() });
    const resend = await latestAttempt(invitationId);
    await notifier().deliver(resend);
    await notifier().deliver(resend);
    expect(mailer.sent.map((mail) => mail.messageId)).toEqual([message.id, resend.id]);
  });
});

describe("a send that fails", () => {
  const failure = async (invitationId: InvitationId) => {
    const history = (await eventStore.read(invitationStream(invitationId))).events;
    return history.find((recorded) => recorded.type === "InvitationDeliveryFailed")?.data;
  };

  it("is tried again with backoff while the mail certainly did not leave, and then recorded delivered", async () => {
    const { invitationId, message } = await queueInvitation();
    mailer.refusals.push(
      new MailNotSentError("421 try later", false),
      new MailNotSentError("connection refused", false),
    );
    expect(await notifier().deliver(message)).toBe("sent");
    expect(mailer.tries).toBe(3);
    expect(mailer.sent).toHaveLength(1);
    expect(await eventTypes(invitationId)).toEqual([
      "InvitationQueued",
      "InvitationDeliveryStarted",
      "InvitationDelivered",
    ]);
  });

  it("is recorded failed when the tries run out, with the server's reason and none of the mail", async () => {
    const { invitationId, message } = await queueInvitation();
    mailer.refusals.push(...Array.from({ length: 3 }, () => new MailNotSentError("421 mailbox busy", false)));
    expect(await notifier().deliver(message)).toBe("failed");
    expect(mailer.tries).toBe(3);
    expect(await failure(invitationId)).toMatchObject({ attemptId: message.id, reason: "421 mailbox busy" });
    expect(JSON.stringify(await failure(invitationId))).not.toContain("invited you");
  });

  it("is recorded and logged without the address, however the mail server's answer names it", async () => {
    const { invitationId, message } = await queueInvitation("zelda.quarrelsome@example.com");
    const lines: string[] = [];
    const logged = pino({ level: "info" }, { write: (line: string) => void lines.push(line) });
    mailer.refusals.push(
      new MailNotSentError("421 4.7.0 <Zelda.Quarrelsome@Example.com> greylisted, try later", false),
      new MailNotSentError("450 mailbox zelda.quarrelsome unavailable", false),
      new MailNotSentError(
        "550 5.1.1 zelda.quarrelsome@example.com: Recipient address rejected (also tried other@example.org)",
        true,
      ),
    );
    expect(await notifier({ logger: logged }).deliver(message)).toBe("failed");
    expect(await failure(invitationId)).toMatchObject({
      reason: "550 5.1.1 <address>: Recipient address rejected (also tried <address>)",
    });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join("\n").toLowerCase()).not.toMatch(/quarrelsome|other@example/);
  });

  it("is recorded failed at once when the address is refused for good, or when it may have left", async () => {
    const refused = await queueInvitation();
    mailer.refusals.push(new MailNotSentError("550 no such user", true));
    expect(await notifier().deliver(refused.message)).toBe("failed");
    expect(mailer.tries).toBe(1);
    const unknown = await queueInvitation();
    mailer.dropAcknowledgement = true;
    expect(await notifier().deliver(unknown.message)).toBe("failed");
    expect(mailer.sent).toHaveLength(1);
    expect(await failure(unknown.invitationId)).toMatchObject({ reason: expect.stringContaining("outcome unknown") });
  });

  it("leaves a failed invitation to a resend, which tries again", async () => {
    const { invitationId, message } = await queueInvitation();
    mailer.refusals.push(new MailNotSentError("550 no such user", true));
    await notifier().deliver(message);
    await invitationCommand({ type: "ResendInvitation", invitationId, canManage: true, now: new Date().toISOString() });
    expect(await notifier().deliver(await latestAttempt(invitationId))).toBe("sent");
    expect((await eventTypes(invitationId)).slice(-2)).toEqual(["InvitationDeliveryStarted", "InvitationDelivered"]);
  });
});

describe("recovery at start", () => {
  const rebuildProjection = async (): Promise<void> => {
    const store = new SqliteProjectionStore(join(dir.path, "read-models.sqlite"));
    await rebuildReadModels({ eventStore, store, logger });
    await store.close();
  };
  const recover = async (): Promise<number> => {
    await rebuildProjection();
    return notifier().recover();
  };

  it("sends an invitation whose latest attempt was never started", async () => {
    const { invitationId, message } = await queueInvitation();
    expect(await recover()).toBe(1);
    expect(mailer.sent.map((mail) => mail.messageId)).toEqual([message.id]);
    expect(await eventTypes(invitationId)).toContain("InvitationDelivered");
  });

  it("does not send again an attempt that was started but never recorded as delivered", async () => {
    const { invitationId, message } = await queueInvitation();
    // A crash between starting the attempt and recording its delivery: the email may or may not have gone out.
    await invitationCommand({
      type: "StartDelivery",
      invitationId,
      attemptId: message.id,
      now: new Date().toISOString(),
    });
    expect(await recover()).toBe(0);
    expect(mailer.sent).toEqual([]);
  });

  it("records such an attempt failed once its lease has run out, so it does not stay pending for ever", async () => {
    const { invitationId, message } = await queueInvitation();
    await invitationCommand({
      type: "StartDelivery",
      invitationId,
      attemptId: message.id,
      now: new Date().toISOString(),
    });
    await rebuildProjection();
    const later = () => new Date(Date.now() + 61_000);
    expect(await notifier({ clock: later }).recover()).toBe(1);
    expect(mailer.sent).toEqual([]);
    expect((await eventTypes(invitationId)).at(-1)).toBe("InvitationDeliveryFailed");
  });

  it("sends a resend queued after an unconfirmed attempt", async () => {
    const { invitationId, message } = await queueInvitation();
    await invitationCommand({
      type: "StartDelivery",
      invitationId,
      attemptId: message.id,
      now: new Date().toISOString(),
    });
    await invitationCommand({ type: "ResendInvitation", invitationId, canManage: true, now: new Date().toISOString() });
    expect(await recover()).toBe(1);
    expect(mailer.sent.map((mail) => mail.messageId)).toEqual([(await latestAttempt(invitationId)).id]);
  });
});
