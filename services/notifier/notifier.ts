// The notifier: takes InvitationQueued and InvitationResent from the bus (group "notifier", so several
// notifiers share the work), sends the invitation email through the mailer port, and records
// InvitationDelivered. Each of those events is one delivery attempt, named by the event's id, and sends at
// most one email: the notifier records InvitationDeliveryStarted in the invitation's stream before sending,
// so a redelivered message, or a second notifier holding the same one, finds the attempt started and sends
// nothing. The price is that an attempt whose send failed or crashed is not sent again; a resend starts a new
// attempt (retries with backoff come in a later issue).
import type { Logger } from "pino";
import { z } from "zod";
import type { Bus, BusMessage, BusSubscription } from "../../shared/bus/bus.port.ts";
import type { CommandContext } from "../../shared/commands/command-context.ts";
import type { EventStore } from "../../shared/event-store/event-store.port.ts";
import { toBusMessage } from "../../shared/bus/integration-events.ts";
import { parseRecorded } from "../../shared/events.ts";
import { invitationIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import type { Mailer } from "../../shared/mail/mailer.port.ts";
import type { ReadModels } from "../../shared/read-store/read-store.port.ts";
import { invitationStream, type InvitationState } from "../../shared/sharing/invitation.decider.ts";
import { invitationCommands } from "../../shared/sharing/sharing.commands.ts";
import { invitationMail } from "./invitation-mail.ts";

export const NOTIFIER_SUBJECTS = ["InvitationQueued", "InvitationResent"] as const;
const messageDataSchema = z.object({ invitationId: invitationIdSchema });

const owesDelivery = (state: InvitationState): state is Exclude<InvitationState, { status: "absent" }> => state.status === "pending" && !state.delivered;

/** What became of one delivery of a message: `started_before` means an earlier delivery owns the attempt. */
export type DeliveryOutcome = "sent" | "send_failed" | "started_before" | "not_owed";

export interface NotifierOptions {
  readonly bus: Bus;
  readonly eventStore: EventStore;
  readonly readModels: ReadModels;
  readonly mailer: Mailer;
  readonly logger: Logger;
  readonly clock: () => Date;
}

export class Notifier {
  private subscription: BusSubscription | null = null;

  constructor(private readonly options: NotifierOptions) {}

  async start(): Promise<void> {
    this.subscription = await this.options.bus.subscribe({
      subjects: NOTIFIER_SUBJECTS,
      group: "notifier",
      handler: async (message) => void (await this.deliver(message)),
    });
  }

  /**
   * Delivers what a crash left undone: invitations the read models show as pending delivery, by their latest
   * attempt. An attempt that was started but never recorded as delivered is not sent again, since the crash
   * may have come after the email went out: at most once per attempt; the inviter can resend. Run once at
   * start, after subscribing. Returns how many emails it sent.
   */
  async recover(): Promise<number> {
    let recovered = 0;
    for (const invitation of await this.options.readModels.invitations.undelivered()) {
      const history = (await this.options.eventStore.read(invitationStream(invitation.id))).events;
      const queuing = history.filter((recorded) => (NOTIFIER_SUBJECTS as readonly string[]).includes(recorded.type)).at(-1);
      if (!queuing) continue;
      try {
        const outcome = await this.deliver(toBusMessage(parseRecorded(queuing)));
        if (outcome === "sent") recovered += 1;
        if (outcome === "started_before") this.options.logger.warn({ event: "invitation.delivery_unconfirmed", invitationId: invitation.id, attemptId: queuing.id });
      } catch (error) {
        this.options.logger.warn({ event: "invitation.recovery_failed", invitationId: invitation.id, err: error });
      }
    }
    return recovered;
  }

  /**
   * Sends the email of the attempt the message carries, unless the invitation was settled, its latest attempt
   * delivered, or this attempt started before. Throws when the event store fails; the redelivery that follows
   * sends only if the attempt had not been started.
   */
  async deliver(message: BusMessage): Promise<DeliveryOutcome> {
    const { invitationId } = messageDataSchema.parse(message.data);
    const state = await invitationCommands.load(this.options.eventStore, invitationId);
    if (!owesDelivery(state)) return "not_owed";
    const context = (): CommandContext => ({
      actorId: userIdSchema.parse(state.invitedBy),
      correlationId: String(message.metadata.correlationId ?? message.id),
      causationId: message.id,
      now: this.options.clock(),
    });
    const start = context();
    // Appended at the stream's expected revision: of two notifiers, the loser conflicts, reloads, and finds
    // the attempt started.
    const started = await invitationCommands.handle(this.options.eventStore, invitationId, { type: "StartDelivery", invitationId, attemptId: message.id, now: start.now.toISOString() }, start);
    if (started.events.length === 0) return owesDelivery(started.state) ? "started_before" : "not_owed";
    const inviter = await this.options.readModels.users.get(state.invitedBy);
    try {
      await this.options.mailer.send(invitationMail({ messageId: message.id, invitation: state, inviterName: inviter?.name ?? "Someone" }));
    } catch (error) {
      // A redelivery would find the attempt started and send nothing, so there is nothing to gain by throwing.
      this.options.logger.error({ event: "invitation.send_failed", invitationId, attemptId: message.id, err: error });
      return "send_failed";
    }
    const recorded = context();
    await invitationCommands.handle(this.options.eventStore, invitationId, { type: "RecordDelivery", invitationId, now: recorded.now.toISOString() }, recorded);
    this.options.logger.info({ event: "invitation.delivered", invitationId, messageId: message.id });
    return "sent";
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
  }
}
