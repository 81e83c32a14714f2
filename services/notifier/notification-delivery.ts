// Notifications by email. At once: `notification.created` from the bus (group "notifier-mail"), for a kind the user
// set to `email`, sends one mail and records NotificationMailed on the notification's own stream; a redelivered
// message, or a coalesced update within MAIL_AGAIN_AFTER_MS of the last mail, sends nothing. Daily: at
// NOTIFICATION_DIGEST_HOUR (UTC) each user whose `digest` kinds have unread notifications since their previous
// digest gets one mail listing them, started (NotificationDigestStarted, appended at the stream's expected revision,
// so of several notifiers only one sends) and recorded (NotificationDigestMailed) on a stream per user and day, so a
// day has at most one digest however often the run is repeated and however many notifiers run it. Names, titles and addresses are read from the read
// models for the mail only. Every mail carries a one-click unsubscribe link (RFC 8058) when the server has a key.
import type { Logger } from "pino";
import type { Bus, BusMessage, BusSubscription } from "../../shared/bus/bus.port.ts";
import { deciderCommandHandler } from "../../shared/commands/decider-command-handler.ts";
import type { CommandContext } from "../../shared/commands/command-context.ts";
import { ERASED_EMAIL } from "../../shared/erasure/erased-values.ts";
import type { EventStore } from "../../shared/event-store/event-store.port.ts";
import { userIdSchema, type UserId } from "../../shared/kernel/ids.ts";
import type { Mailer } from "../../shared/mail/mailer.port.ts";
import { visibilityOf } from "../../shared/notifications/list-notifications.ts";
import { MAX_NOTIFICATIONS_PER_USER } from "../../shared/notifications/notification-limits.ts";
import {
  digestStartable,
  mailOwed,
  notificationDigestStream,
  notificationMailDecider,
  notificationMailEventSchemas,
  notificationMailStream,
} from "../../shared/notifications/notification-mail.decider.ts";
import { NOTIFICATION_CREATED, notificationCreatedSchema } from "../../shared/notifications/notification-messages.ts";
import type { NotificationRecord } from "../../shared/notifications/notifications.view.ts";
import type { UnsubscribeScope, UnsubscribeTokens } from "../../shared/notifications/unsubscribe-token.ts";
import type { ReadModels } from "../../shared/read-store/read-store.port.ts";
import { digestMail, notificationMail, type ToldNotification } from "./notification-mail.ts";
import { sendOnce } from "./send-once.ts";

/** A notification changed longer ago than this is not mailed at once any more (a bus that caught up late). */
const MAIL_AT_ONCE_WITHIN_MS = 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Users read per page while digests are sent. */
const USERS_PER_PAGE = 200;

const mailCommands = deciderCommandHandler({
  decider: notificationMailDecider,
  streamOf: (notificationId: string) => notificationMailStream(notificationId),
  eventSchemas: notificationMailEventSchemas,
});
const digestCommands = deciderCommandHandler({
  decider: notificationMailDecider,
  streamOf: ({ userId, day }: { userId: string; day: string }) => notificationDigestStream(userId, day),
  eventSchemas: notificationMailEventSchemas,
});

export type MailOutcome = "sent" | "not_owed" | "failed";

export interface NotificationDeliveryOptions {
  readonly bus: Bus;
  readonly eventStore: EventStore;
  readonly readModels: ReadModels;
  readonly mailer: Mailer;
  readonly logger: Logger;
  readonly clock: () => Date;
  /** Where links point (PUBLIC_BASE_URL); mails carry no links without it. */
  readonly publicBaseUrl: string | null;
  /** Signs unsubscribe links; mails carry none without it. */
  readonly unsubscribe: UnsubscribeTokens | null;
  /** The hour (UTC) digests are sent at. */
  readonly digestHour: number;
  /** How often the digest timer looks at the clock (0: never; a test calls sendDigests). */
  readonly digestCheckMs?: number;
}

const dayOf = (date: Date): string => date.toISOString().slice(0, 10);

export class NotificationDelivery {
  private subscription: BusSubscription | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastDigestDay: string | null = null;

  constructor(private readonly options: NotificationDeliveryOptions) {}

  async start(): Promise<void> {
    this.subscription = await this.options.bus.subscribe({
      subjects: [NOTIFICATION_CREATED],
      group: "notifier-mail",
      handler: async (message) => void (await this.mailAtOnce(message)),
    });
    const every = this.options.digestCheckMs ?? 60_000;
    if (every > 0) {
      this.timer = setInterval(() => void this.digestIfDue(), every);
      this.timer.unref();
    }
  }

  /** Sends the day's digests once the digest hour has come, once per day and process (the streams dedupe the rest). */
  private async digestIfDue(): Promise<void> {
    const now = this.options.clock();
    const day = dayOf(now);
    if (now.getUTCHours() < this.options.digestHour || this.lastDigestDay === day) return;
    this.lastDigestDay = day;
    try {
      await this.sendDigests(now);
    } catch (error) {
      this.lastDigestDay = null;
      this.options.logger.warn({ event: "notification.digest_run_failed", err: error });
    }
  }

  /**
   * Mails the notification the message names, when it is owed: still there and unread, recent, of a kind the user
   * gets by email, about something they can still view, to an address they still have, and not mailed for this
   * message nor within MAIL_AGAIN_AFTER_MS. Throws when the mail certainly did not leave but may later (the bus
   * delivers the message again).
   */
  async mailAtOnce(message: BusMessage): Promise<MailOutcome> {
    const { notificationId, userId } = notificationCreatedSchema.parse(message.data);
    const { readModels } = this.options;
    const now = this.options.clock();
    const [notification] = await readModels.notifications.getMany(userId, [notificationId]);
    if (!notification || notification.readAt !== null) return "not_owed";
    if (now.getTime() - Date.parse(notification.updatedAt) > MAIL_AT_ONCE_WITHIN_MS) return "not_owed";
    const settings = await readModels.notificationSettings.get(userId);
    if (settings.delivery[notification.kind] !== "email") return "not_owed";
    const address = await this.addressFor(userId, notification);
    if (address === null) return "not_owed";
    if (!mailOwed(await mailCommands.load(this.options.eventStore, notificationId), message.id, now)) return "not_owed";
    const mail = notificationMail({
      messageId: message.id,
      to: address,
      told: await this.tell(notification),
      unsubscribe: this.unsubscribeLink(userId, notification.kind, now),
    });
    const failure = await this.send(mail.to, () => this.options.mailer.send(mail));
    if (failure !== null) {
      this.options.logger.warn({
        event: "notification.mail_failed",
        notificationId,
        attemptId: message.id,
        reason: failure,
      });
      return "failed";
    }
    await mailCommands.handle(
      this.options.eventStore,
      notificationId,
      {
        type: "RecordMail",
        notificationId,
        userId,
        kind: notification.kind,
        attemptId: message.id,
        now: now.toISOString(),
      },
      this.context(userId, message.id, now),
    );
    this.options.logger.info({ event: "notification.mailed", notificationId, attemptId: message.id });
    return "sent";
  }

  /**
   * Sends each user the digest of `now`'s day, unless they had it: their unread notifications of the kinds they get
   * by digest, changed since their previous day's digest (or within the last day), about what they can still view.
   * Nobody with nothing to read gets a mail. Answers how many digests were sent.
   */
  async sendDigests(now: Date): Promise<number> {
    const day = dayOf(now);
    const yesterday = dayOf(new Date(now.getTime() - DAY_MS));
    let sent = 0;
    let after: string | null = null;
    for (;;) {
      const users = await this.options.readModels.notifications.usersWithUnread(after, USERS_PER_PAGE);
      for (const user of users) {
        try {
          if (await this.digestFor(userIdSchema.parse(user), day, yesterday, now)) sent += 1;
        } catch (error) {
          this.options.logger.warn({ event: "notification.digest_failed", userId: user, err: error });
        }
      }
      if (users.length < USERS_PER_PAGE) return sent;
      after = users[users.length - 1] ?? null;
    }
  }

  private async digestFor(userId: UserId, day: string, yesterday: string, now: Date): Promise<boolean> {
    const { readModels, eventStore } = this.options;
    const settings = await readModels.notificationSettings.get(userId);
    const kinds = new Set(
      Object.entries(settings.delivery)
        .filter(([, delivery]) => delivery === "digest")
        .map(([kind]) => kind),
    );
    if (kinds.size === 0) return false;
    if (!digestStartable(await digestCommands.load(eventStore, { userId, day }), now)) return false;
    const previous = await eventStore.read(notificationDigestStream(userId, yesterday));
    const since =
      previous.events.filter((recorded) => recorded.type === "NotificationDigestMailed").at(-1)?.metadata.occurredAt ??
      new Date(now.getTime() - DAY_MS).toISOString();
    const unread = (await readModels.notifications.unread(userId, MAX_NOTIFICATIONS_PER_USER)).filter(
      (n) => kinds.has(n.kind) && n.updatedAt > since && n.updatedAt <= now.toISOString(),
    );
    if (unread.length === 0) return false;
    const visible = visibilityOf(readModels, await readModels.access.contextFor(userId));
    const shown: NotificationRecord[] = [];
    for (const n of unread.reverse()) if (await visible(n)) shown.push(n);
    const user = await readModels.users.get(userId);
    if (shown.length === 0 || !user || user.email === ERASED_EMAIL) return false;
    const messageId = `digest-${userId}-${day}`;
    // Claimed at the stream's expected revision before the mail leaves: of two notifiers, the loser appends nothing.
    const started = await digestCommands.handle(
      eventStore,
      { userId, day },
      { type: "StartDigest", userId, day, now: now.toISOString() },
      this.context(userId, messageId, now),
    );
    if (started.events.length === 0) return false;
    const told: ToldNotification[] = [];
    for (const n of shown) told.push(await this.tell(n));
    const mail = digestMail({
      messageId,
      to: user.email,
      day,
      told,
      unsubscribe: this.unsubscribeLink(userId, "all", now),
    });
    const failure = await this.send(user.email, () => this.options.mailer.send(mail));
    if (failure !== null) {
      this.options.logger.warn({ event: "notification.digest_failed", userId, day, reason: failure });
      return false;
    }
    await digestCommands.handle(
      eventStore,
      { userId, day },
      { type: "RecordDigest", userId, day, notificationIds: shown.map((n) => n.id), now: now.toISOString() },
      this.context(userId, messageId, now),
    );
    this.options.logger.info({ event: "notification.digest_mailed", userId, day, count: shown.length });
    return true;
  }

  /** The user's address when they can still view what the notification is about; null otherwise. */
  private async addressFor(userId: string, notification: NotificationRecord): Promise<string | null> {
    const { readModels } = this.options;
    const user = await readModels.users.get(userId);
    if (!user || user.email === ERASED_EMAIL) return null;
    const visible = visibilityOf(readModels, await readModels.access.contextFor(userId));
    return (await visible(notification)) ? user.email : null;
  }

  /**
   * Null once sent; the reason otherwise, without the address (failure-reason.ts). Throws when the mail certainly did
   * not leave and a later try may succeed, so the bus brings the message again.
   */
  private async send(address: string, send: () => Promise<void>): Promise<string | null> {
    const failure = await sendOnce(address, send);
    // Thrown without the mailer's error as its cause: that may name the address, and the bus logs what it catches.
    if (failure?.retryable) throw new Error(`mail not sent, to be tried again: ${failure.reason}`);
    return failure?.reason ?? null;
  }

  /**
   * The notification in words. Called only for notifications the user may see (visibilityOf), so a group is named
   * only to its members.
   */
  private async tell(n: NotificationRecord): Promise<ToldNotification> {
    const { readModels, publicBaseUrl } = this.options;
    const actor = await readModels.users.get(n.actorId);
    const page = n.pageId === null ? null : await readModels.pages.get(n.pageId);
    const folder = n.folderId === null ? null : await readModels.folders.get(n.folderId);
    const group = n.groupId === null ? null : await readModels.groups.get(n.groupId);
    const path =
      n.pageId !== null ? `/api/v1/pages/${n.pageId}` : n.folderId !== null ? `/api/v1/folders/${n.folderId}` : null;
    return {
      kind: n.kind,
      actorName: actor?.name ?? "Someone",
      count: n.count,
      placeName: page?.title ?? folder?.name ?? group?.name ?? null,
      link: publicBaseUrl !== null && path !== null ? `${publicBaseUrl.replace(/\/$/, "")}${path}` : null,
      placeId: n.pageId ?? n.folderId,
    };
  }

  private unsubscribeLink(userId: UserId, scope: UnsubscribeScope, now: Date): string | null {
    const { publicBaseUrl, unsubscribe } = this.options;
    if (publicBaseUrl === null || unsubscribe === null) return null;
    const token = unsubscribe.issue(userId, scope, now);
    return `${publicBaseUrl.replace(/\/$/, "")}/api/v1/notifications/unsubscribe?token=${encodeURIComponent(token)}`;
  }

  private context(userId: UserId, causationId: string, now: Date): CommandContext {
    return { actorId: userId, correlationId: causationId, causationId, now };
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.subscription?.stop();
    this.subscription = null;
  }
}
