// The change feed's hub, one per query process: it follows the history change log as the read models advance,
// names each new entry's stored summary once, and hands every open feed the entries its owner may see now
// (today's permission, read after the batch that changed it: a revoked grant stops an entity's changes from the
// next batch on), each naming only the folders that owner can view. A feed resuming from an earlier position catches up from
// the log on its own, then joins the live delivery without a gap or a repeat. A feed lives no longer than the
// credential that opened it: it ends when its API token's revocation reaches the read models (checked after
// every batch, as permissions are) and at the instant its token or session expires. A feed that asks for them also
// gets its own user's notifications as they are created or updated, read by (user, position range) for the same
// range as the entries, and only those about what the user may still see.
import { credentialOf } from "../apps/credential-of.ts";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import { effectivePermission, type AccessTarget } from "../access/effective-permission.ts";
import { AppError } from "../errors/app-error.ts";
import { atLeast } from "../kernel/permissions.ts";
import { visibilityOf } from "../notifications/list-notifications.ts";
import { MAX_NOTIFICATIONS_PER_USER } from "../notifications/notification-limits.ts";
import type { NotificationRecord } from "../notifications/notifications.view.ts";
import type { ProjectionProgress } from "../read-store/checkpoint-watcher.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import type { DescribedEntry } from "./describe-history.ts";
import { entriesSeenBy, foldersNamedBy, type FolderStanding } from "./history-seen-by.ts";
import { accessTargetOf, describeFor, folderStandingsOf, seesWorkspaceEntry } from "./read-history.ts";

/**
 * Entries read per batch. An entry read is its stored summary (bounded: titles, sizes, line counts), never an
 * event's markdown, so a batch's bytes are bounded with its count. Between batches the hub yields to the event
 * loop: a feed catching up over a long log shares the process with every other request.
 */
const BATCH = 500;
const IDLE_WAIT_MS = 1_000;

export interface FeedOptions {
  /** Open feeds one user may hold on this process; one more is refused with 429. */
  readonly maxPerUser: number;
  readonly clock: () => Date;
}

/** What opened a feed: the API token (null for a session) and when the credential expires (ms; null: never). */
interface FeedCredential {
  readonly tokenId: string | null;
  readonly expiresAt: number | null;
}

/** setTimeout's longest delay; a later expiry is waited for in steps. */
const MAX_TIMER_MS = 2_147_483_647;

export interface Feed {
  readonly userId: string;
  readonly credential: FeedCredential;
  /** Position of the last entry this feed has dealt with (delivered or not visible to it). */
  cursor: number;
  /** Also deliver the user's own notifications (the second argument of `deliver`). */
  readonly withNotifications?: boolean;
  /**
   * Receives, for one stretch of the log, the entries visible to the feed's user and (when asked for) the user's
   * notifications whose latest change lies in that stretch, each oldest first. Whatever a position carries comes in
   * one call.
   */
  readonly deliver: (entries: readonly DescribedEntry[], notifications: readonly NotificationRecord[]) => void;
  /** Ends the feed from the hub's side (the log could not be read); the client reconnects with Last-Event-ID. */
  readonly end: () => void;
}

interface Batch {
  readonly described: readonly DescribedEntry[];
  readonly upTo: number;
  readonly targets: Map<string, Promise<AccessTarget | null>>;
  /** The folders the batch's changes name, looked up once for all its feeds. */
  readonly folders: Map<string, Promise<FolderStanding | null>>;
  /** Whether a notification may have changed in the batch's stretch (false: nobody's did, no feed reads them). */
  readonly notified: boolean;
}

export class ChangeFeedHub {
  private readonly feeds = new Set<Feed>();
  private readonly live = new Set<Feed>();
  private readonly openPerUser = new Map<string, number>();
  private readonly expiries = new Map<Feed, NodeJS.Timeout>();
  private scanned = 0;
  private following: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly views: ReadModels,
    private readonly progress: ProjectionProgress,
    private readonly options: FeedOptions,
  ) {}

  /** How far the read models reach: where a feed without a resume point starts. */
  head(): Promise<number> {
    return this.progress.current();
  }

  /** Registers a feed, or refuses it with 429 past the per-user bound; start() then runs it. */
  admit(feed: Feed): void {
    const open = this.openPerUser.get(feed.userId) ?? 0;
    if (open >= this.options.maxPerUser) {
      throw new AppError(
        "rate_limited",
        `at most ${this.options.maxPerUser} change feeds may be open at once per user on this node; close one first`,
        { "retry-after": "5" },
      );
    }
    this.openPerUser.set(feed.userId, open + 1);
    this.feeds.add(feed);
    this.endAtExpiry(feed);
  }

  /** Catches an admitted feed up from its cursor, then delivers to it live until it is closed. */
  async start(feed: Feed): Promise<void> {
    if (!this.following) {
      const head = await this.progress.current();
      if (!this.following) {
        this.scanned = head;
        this.startFollowing();
      }
    }
    // A revocation projected between the request's authentication and now would otherwise wait for a next batch.
    await this.endRevoked([feed]);
    await this.catchUp(feed);
  }

  close(feed: Feed): void {
    if (!this.feeds.delete(feed)) return;
    this.live.delete(feed);
    clearTimeout(this.expiries.get(feed));
    this.expiries.delete(feed);
    const open = (this.openPerUser.get(feed.userId) ?? 1) - 1;
    if (open <= 0) this.openPerUser.delete(feed.userId);
    else this.openPerUser.set(feed.userId, open);
  }

  /** Stops following; open feeds are ended by their owners (the route ends the responses). */
  async stop(): Promise<void> {
    this.closed = true;
    await this.following;
  }

  get openFeeds(): number {
    return this.feeds.size;
  }

  private async catchUp(feed: Feed): Promise<void> {
    while (this.feeds.has(feed) && feed.cursor < this.scanned) {
      const until = this.scanned;
      const changes = (await this.views.history.changesAfter(feed.cursor, BATCH)).filter(
        (change) => change.position <= until,
      );
      const last = changes[changes.length - 1];
      const upTo = changes.length === BATCH && last ? last.position : until;
      await this.deliverTo(feed, {
        described: await describeFor(this.views, changes),
        upTo,
        targets: new Map(),
        folders: new Map(),
        notified: true,
      });
      await yieldToLoop();
    }
    if (this.feeds.has(feed)) this.live.add(feed);
  }

  private async follow(): Promise<void> {
    while (!this.closed && this.feeds.size > 0) {
      const head = await this.progress.current();
      if (head <= this.scanned) {
        await this.progress.waitFor(this.scanned + 1, IDLE_WAIT_MS);
        continue;
      }
      await this.endRevoked([...this.feeds]);
      const changes = (await this.views.history.changesAfter(this.scanned, BATCH)).filter(
        (change) => change.position <= head,
      );
      const last = changes[changes.length - 1];
      const upTo = changes.length === BATCH && last ? last.position : head;
      const batch: Batch = {
        described: await describeFor(this.views, changes),
        upTo,
        targets: new Map(),
        folders: new Map(),
        notified: (await this.views.notifications.producedBetween(this.scanned, upTo, null, 1)).length > 0,
      };
      await Promise.all([...this.live].map((feed) => this.deliverTo(feed, batch)));
      this.scanned = upTo;
      // A feed that went live while this batch was in hand missed it: it catches up from the log again.
      for (const feed of this.live) {
        if (feed.cursor < upTo) {
          this.live.delete(feed);
          this.catchUp(feed).catch(() => this.end(feed));
        }
      }
      await yieldToLoop();
    }
  }

  private startFollowing(): void {
    this.following = this.follow()
      .catch(() => {
        for (const feed of [...this.feeds]) this.end(feed);
      })
      .finally(() => {
        this.following = null;
      });
  }

  private end(feed: Feed): void {
    if (!this.feeds.has(feed)) return;
    this.close(feed);
    feed.end();
  }

  private endAtExpiry(feed: Feed): void {
    const { expiresAt } = feed.credential;
    if (expiresAt === null || !this.feeds.has(feed)) return;
    const wait = expiresAt - this.options.clock().getTime();
    const timer = setTimeout(
      () => (wait > MAX_TIMER_MS ? this.endAtExpiry(feed) : this.end(feed)),
      Math.max(0, Math.min(wait, MAX_TIMER_MS)),
    );
    // The timer alone must not keep a closing process alive.
    timer.unref();
    this.expiries.set(feed, timer);
  }

  /** Ends the feeds whose API token or OAuth app the read models now show revoked (or gone). */
  private async endRevoked(feeds: readonly Feed[]): Promise<void> {
    const tokenIds = new Set(
      feeds.flatMap((feed) => (feed.credential.tokenId === null ? [] : [feed.credential.tokenId])),
    );
    if (tokenIds.size === 0) return;
    const revoked = new Set<string>();
    for (const tokenId of tokenIds) {
      const token = await credentialOf(this.views, tokenId);
      if (!token || token.revokedAt !== null) revoked.add(tokenId);
    }
    for (const feed of feeds)
      if (feed.credential.tokenId !== null && revoked.has(feed.credential.tokenId)) this.end(feed);
  }

  /** The batch's entries this feed's user may see now, past the feed's cursor; then the cursor moves on. */
  private async deliverTo(feed: Feed, batch: Batch): Promise<void> {
    const fresh = batch.described.filter(({ entry }) => entry.position > feed.cursor);
    const changed =
      feed.withNotifications === true && batch.notified && batch.upTo > feed.cursor
        ? await this.views.notifications.changedBetween(
            feed.userId,
            feed.cursor,
            batch.upTo,
            MAX_NOTIFICATIONS_PER_USER,
          )
        : [];
    const context = fresh.length > 0 || changed.length > 0 ? await this.views.access.contextFor(feed.userId) : null;
    const visible: DescribedEntry[] = [];
    for (const described of fresh) {
      if (described.entry.access.kind === "workspace") {
        if (context && seesWorkspaceEntry(context, described.entry)) visible.push(described);
        continue;
      }
      const key = `${described.entry.access.kind}:${described.entry.access.id}`;
      let target = batch.targets.get(key);
      if (!target) {
        target = accessTargetOf(this.views, described.entry.access);
        batch.targets.set(key, target);
      }
      const resolved = await target;
      const permission = context && resolved ? effectivePermission(context, resolved) : null;
      if (permission && (!described.entry.sharing || atLeast(permission, "admin"))) visible.push(described);
    }
    // Described once for every feed; each feed's user is then shown only the folders they can view.
    const seen =
      context && visible.length > 0
        ? entriesSeenBy(context, visible, await folderStandingsOf(this.views, foldersNamedBy(visible), batch.folders))
        : [];
    const notifications: NotificationRecord[] = [];
    if (context && changed.length > 0) {
      const visibleToUser = visibilityOf(this.views, context);
      for (const notification of changed) if (await visibleToUser(notification)) notifications.push(notification);
    }
    if (!this.feeds.has(feed)) return;
    if (seen.length > 0 || notifications.length > 0) feed.deliver(seen, notifications);
    feed.cursor = Math.max(feed.cursor, batch.upTo);
  }
}
