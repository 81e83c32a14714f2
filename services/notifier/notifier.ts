// The notifier: takes InvitationQueued and InvitationResent from the bus (group "notifier", so several
// notifiers share the work), sends the invitation email through the mailer port, and records
// InvitationDelivered. A failed send throws, and the bus delivers the message again later.
import type { Logger } from "pino";
import { z } from "zod";
import type { Bus, BusMessage, BusSubscription } from "../../shared/bus/bus.port.ts";
import { runCommand } from "../../shared/commands/run-command.ts";
import type { EventStore } from "../../shared/event-store/event-store.port.ts";
import { loadState } from "../../shared/commands/load-state.ts";
import { toBusMessage } from "../../shared/bus/integration-events.ts";
import { eventGuard, parseRecorded } from "../../shared/events.ts";
import { invitationIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import type { Mailer } from "../../shared/mail/mailer.port.ts";
import type { ReadModels } from "../../shared/read-store/read-store.port.ts";
import { invitationDecider, invitationEventSchemas, invitationStream, type InvitationEvent } from "../../shared/sharing/invitation.decider.ts";
import { invitationMail } from "./invitation-mail.ts";

const isInvitationEvent = eventGuard<InvitationEvent>(invitationEventSchemas);
export const NOTIFIER_SUBJECTS = ["InvitationQueued", "InvitationResent"] as const;
const messageDataSchema = z.object({ invitationId: invitationIdSchema });

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
    this.subscription = await this.options.bus.subscribe({ subjects: NOTIFIER_SUBJECTS, group: "notifier", handler: (message) => this.deliver(message) });
  }

  /**
   * Delivers what a crash left undelivered: invitations whose queued delivery the read models show as pending.
   * Each is sent under the id of the event that queued it, so an email already written is overwritten, not
   * doubled. Run once at start, after subscribing.
   */
  async recover(): Promise<number> {
    let recovered = 0;
    for (const invitation of await this.options.readModels.invitations.undelivered()) {
      const history = await this.options.eventStore.read(invitationStream(invitation.id));
      const queuing = history.filter((recorded) => (NOTIFIER_SUBJECTS as readonly string[]).includes(recorded.type)).at(-1);
      if (!queuing) continue;
      try {
        await this.deliver(toBusMessage(parseRecorded(queuing)));
        recovered += 1;
      } catch (error) {
        this.options.logger.warn({ event: "invitation.recovery_failed", invitationId: invitation.id, err: error });
      }
    }
    return recovered;
  }

  /** Sends the email the message asks for, unless the invitation was settled or this delivery already went out. */
  async deliver(message: BusMessage): Promise<void> {
    const { invitationId } = messageDataSchema.parse(message.data);
    const { state } = await loadState(this.options.eventStore, invitationStream(invitationId), invitationDecider, isInvitationEvent);
    if (state.status !== "pending" || state.delivered) return;
    const inviter = await this.options.readModels.users.get(state.invitedBy);
    await this.options.mailer.send(invitationMail({ messageId: message.id, invitation: state, inviterName: inviter?.name ?? "Someone" }));
    const now = this.options.clock();
    await runCommand(this.options.eventStore, invitationStream(invitationId), invitationDecider, isInvitationEvent, { type: "RecordDelivery", invitationId, now: now.toISOString() }, {
      actorId: userIdSchema.parse(state.invitedBy),
      correlationId: String(message.metadata.correlationId ?? message.id),
      causationId: message.id,
      now,
    });
    this.options.logger.info({ event: "invitation.delivered", invitationId, messageId: message.id });
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
  }
}
