// The notifier: takes InvitationQueued and InvitationResent from the bus (group "notifier", so several
// notifiers share the work), sends the invitation email through the mailer port, and records how the attempt
// ended. Each of those events is one delivery attempt, named by the event's id, and sends at most one email:
// the notifier records InvitationDeliveryStarted in the invitation's stream before sending, so a redelivered
// message, or a second notifier holding the same one, finds the attempt started and sends nothing. A failing
// send that certainly did not leave (the mailer's error says notSent) is retried with backoff within the attempt; when the
// tries run out, or the mail was refused for good, or it is unknown whether it left, InvitationDeliveryFailed
// is recorded with the reason. A notifier that stops mid-attempt leaves it started without an
// outcome: once its lease has run out, any notifier's sweep records it failed ("outcome unknown"), so no
// attempt stays pending for ever. The inviter's resend starts a new attempt.
import { tracing } from "../../shared/tracing/tracing.port.ts";
import { traceparentOf } from "../../shared/bus/bus-trace.ts";
import { ERASED_EMAIL } from "../../shared/erasure/erased-values.ts";
import type { Logger } from "pino";
import { z } from "zod";
import type { Bus, BusMessage, BusSubscription } from "../../shared/bus/bus.port.ts";
import { toBusMessage } from "../../shared/bus/integration-events.ts";
import type { CommandContext } from "../../shared/commands/command-context.ts";
import type { EventStore } from "../../shared/event-store/event-store.port.ts";
import { parseRecorded } from "../../shared/events.ts";
import { invitationIdSchema, userIdSchema, type InvitationId } from "../../shared/kernel/ids.ts";
import type { Mailer } from "../../shared/mail/mailer.port.ts";
import type { DeliveryMetrics, DeliveryOutcome } from "../../shared/metrics/metrics.port.ts";
import type { ReadModels } from "../../shared/read-store/read-store.port.ts";
import {
  attemptStartedAt,
  invitationStream,
  owesDelivery,
  type InvitationCommand,
} from "../../shared/sharing/invitation.decider.ts";
import { invitationCommands } from "../../shared/sharing/sharing.commands.ts";
import { invitationMail } from "./invitation-mail.ts";
import { sendOnce } from "./send-once.ts";

const NOTIFIER_SUBJECTS = ["InvitationQueued", "InvitationResent"] as const;
const messageDataSchema = z.object({ invitationId: invitationIdSchema });

export interface RetryPolicy {
  /** Sends tried per attempt, the first included. */
  readonly tries: number;
  /** Wait before the second try; each further wait is four times the one before. */
  readonly firstDelayMs: number;
}

export interface NotifierOptions {
  readonly bus: Bus;
  readonly eventStore: EventStore;
  readonly readModels: ReadModels;
  readonly mailer: Mailer;
  readonly logger: Logger;
  readonly clock: () => Date;
  /** Where the mail's link points (PUBLIC_BASE_URL). */
  readonly publicBaseUrl?: string | null;
  readonly retry?: RetryPolicy;
  /** How long a started attempt may go without an outcome before a sweep records it failed. */
  readonly leaseMs?: number;
  /** How often the sweep runs (0: only at start). */
  readonly sweepIntervalMs?: number;
  readonly metrics?: DeliveryMetrics;
}

const DEFAULT_RETRY: RetryPolicy = { tries: 4, firstDelayMs: 2_000 };
/** Longer than the retries of one attempt take (2 + 8 + 32 s), with room for a slow mail server. */
const DEFAULT_LEASE_MS = 5 * 60_000;

export class Notifier {
  private subscription: BusSubscription | null = null;
  private sweeper: NodeJS.Timeout | null = null;

  constructor(private readonly options: NotifierOptions) {}

  private get retry(): RetryPolicy {
    return this.options.retry ?? DEFAULT_RETRY;
  }

  async start(): Promise<void> {
    this.subscription = await this.options.bus.subscribe({
      subjects: NOTIFIER_SUBJECTS,
      group: "notifier",
      handler: (message) =>
        tracing().inSpan(
          "notifier.invitation",
          { kind: "consumer", parent: traceparentOf(message), attributes: { "messaging.message.id": message.id } },
          async () => void (await this.deliver(message)),
        ),
    });
    const every = this.options.sweepIntervalMs ?? 60_000;
    if (every > 0) {
      this.sweeper = setInterval(
        () =>
          void this.recover().catch((error: unknown) =>
            this.options.logger.warn({ event: "notifier.sweep_failed", err: error }),
          ),
        every,
      );
      this.sweeper.unref();
    }
  }

  /**
   * Settles what the bus cannot: for each invitation the read models show as owing a delivery, its latest
   * attempt is sent if no notifier ever started it (its message was lost with a crash), and recorded failed if
   * one started it longer than the lease ago without an outcome. Runs at start and then periodically; returns
   * how many attempts it settled.
   */
  async recover(): Promise<number> {
    let settled = 0;
    for (const invitation of await this.options.readModels.invitations.undelivered()) {
      const history = (await this.options.eventStore.read(invitationStream(invitation.id))).events;
      const queuing = history
        .filter((recorded) => (NOTIFIER_SUBJECTS as readonly string[]).includes(recorded.type))
        .at(-1);
      if (!queuing) continue;
      try {
        const message = toBusMessage(parseRecorded(queuing));
        const outcome = await this.deliver(message);
        if (outcome === "sent" || outcome === "failed") settled += 1;
        if (outcome === "started_before" && (await this.abandonIfExpired(message))) settled += 1;
      } catch (error) {
        this.options.logger.warn({ event: "invitation.recovery_failed", invitationId: invitation.id, err: error });
      }
    }
    return settled;
  }

  /**
   * Sends the email of the attempt the message carries, unless the invitation was settled, its latest attempt
   * has an outcome, or this attempt started before. Resolves once the outcome is in the event store, so the
   * bus acknowledges the message only then; throws when the event store fails.
   */
  async deliver(message: BusMessage): Promise<DeliveryOutcome> {
    const outcome = await this.attempt(message);
    this.options.metrics?.delivery(outcome);
    return outcome;
  }

  private async attempt(message: BusMessage): Promise<DeliveryOutcome> {
    const { invitationId } = messageDataSchema.parse(message.data);
    const state = await invitationCommands.load(this.options.eventStore, invitationId);
    // An address erased since the invitation was queued reads as erased: there is nobody to write to.
    if (!owesDelivery(state) || state.email === ERASED_EMAIL) return "not_owed";
    if (attemptStartedAt(state, message.id) !== null) return "started_before";
    const context = this.contextFor(message, state.invitedBy);
    // Appended at the stream's expected revision: of two notifiers, the loser conflicts, reloads, and finds
    // the attempt started.
    const started = await this.decide(
      invitationId,
      { type: "StartDelivery", invitationId, attemptId: message.id, now: context().now.toISOString() },
      context,
    );
    if (started === 0)
      return owesDelivery(await invitationCommands.load(this.options.eventStore, invitationId))
        ? "started_before"
        : "not_owed";
    const inviter = await this.options.readModels.users.get(state.invitedBy);
    const mail = invitationMail({
      messageId: message.id,
      invitation: state,
      inviterName: inviter?.name ?? "Someone",
      publicBaseUrl: this.options.publicBaseUrl ?? null,
    });
    const failure = await this.sendWithRetries(invitationId, message.id, state.email, () =>
      this.options.mailer.send(mail),
    );
    if (failure === null) {
      await this.decide(
        invitationId,
        { type: "RecordDelivery", invitationId, attemptId: message.id, now: context().now.toISOString() },
        context,
      );
      this.options.logger.info({ event: "invitation.delivered", invitationId, attemptId: message.id });
      return "sent";
    }
    await this.decide(
      invitationId,
      {
        type: "RecordDeliveryFailure",
        invitationId,
        attemptId: message.id,
        reason: failure,
        now: context().now.toISOString(),
      },
      context,
    );
    this.options.logger.warn({
      event: "invitation.delivery_failed",
      invitationId,
      attemptId: message.id,
      reason: failure,
    });
    return "failed";
  }

  /** null once a send succeeded; otherwise the reason the last try failed, without the address (failure-reason.ts). */
  private async sendWithRetries(
    invitationId: InvitationId,
    attemptId: string,
    address: string,
    send: () => Promise<void>,
  ): Promise<string | null> {
    let delay = this.retry.firstDelayMs;
    for (let tryNumber = 1; ; tryNumber += 1) {
      const failure = await sendOnce(address, send);
      if (failure === null) return null;
      const { reason } = failure;
      this.options.logger.warn({ event: "invitation.send_failed", invitationId, attemptId, try: tryNumber, reason });
      // Only a mail that certainly did not leave is tried again: a second send of one that may have left
      // could be a second email for this attempt.
      if (failure.mayHaveLeft) return `outcome unknown: ${reason}`;
      if (!failure.retryable || tryNumber >= this.retry.tries) return reason;
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay *= 4;
    }
  }

  /** Records an attempt failed when it was started longer than the lease ago and still has no outcome. */
  private async abandonIfExpired(message: BusMessage): Promise<boolean> {
    const { invitationId } = messageDataSchema.parse(message.data);
    const state = await invitationCommands.load(this.options.eventStore, invitationId);
    if (!owesDelivery(state)) return false;
    const startedAt = attemptStartedAt(state, message.id);
    const now = this.options.clock();
    if (startedAt === null || now.getTime() - Date.parse(startedAt) < (this.options.leaseMs ?? DEFAULT_LEASE_MS))
      return false;
    const reason = "outcome unknown: the notifier sending it stopped before recording the result; resend to try again";
    const context = this.contextFor(message, state.invitedBy);
    const recorded = await this.decide(
      invitationId,
      { type: "RecordDeliveryFailure", invitationId, attemptId: message.id, reason, now: now.toISOString() },
      context,
    );
    if (recorded > 0)
      this.options.logger.warn({ event: "invitation.delivery_abandoned", invitationId, attemptId: message.id });
    return recorded > 0;
  }

  private contextFor(message: BusMessage, inviter: string): () => CommandContext {
    return () => ({
      actorId: userIdSchema.parse(inviter),
      correlationId: typeof message.metadata.correlationId === "string" ? message.metadata.correlationId : message.id,
      causationId: message.id,
      now: this.options.clock(),
    });
  }

  /** Runs one invitation command; answers how many events it appended. */
  private async decide(
    invitationId: InvitationId,
    command: InvitationCommand,
    context: () => CommandContext,
  ): Promise<number> {
    return (await invitationCommands.handle(this.options.eventStore, invitationId, command, context())).events.length;
  }

  async stop(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    await this.subscription?.stop();
    this.subscription = null;
  }
}
