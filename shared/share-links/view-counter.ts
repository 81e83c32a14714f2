// Public views counted in memory on the node that served them and reported to the write side in one batch
// every `flushMs` (and when the node stops), so a burst of views costs one event per link and report, and a
// query node never appends. A report that fails is kept and added to the next one. Counts are exact except for
// a node that dies between two reports: the views it had not reported yet are lost (at most `flushMs` of them).
import type { Logger } from "pino";
import type { ShareLinkViewRecorder } from "./share-link-views.port.ts";

interface Pending {
  secret: string;
  views: number;
  lastViewedAt: string;
}

/** Links counted between two reports at most; past it the next view starts a report at once. */
const MAX_PENDING_LINKS = 10_000;

export class ShareLinkViewCounter {
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly recorder: ShareLinkViewRecorder,
    private readonly options: { readonly flushMs: number; readonly clock: () => Date; readonly logger?: Logger },
  ) {}

  count(linkId: string, secret: string): void {
    const now = this.options.clock().toISOString();
    const entry = this.pending.get(linkId);
    if (entry) {
      entry.views += 1;
      entry.lastViewedAt = now;
    } else {
      this.pending.set(linkId, { secret, views: 1, lastViewedAt: now });
    }
    if (this.pending.size >= MAX_PENDING_LINKS) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.options.flushMs);
      this.timer.unref();
    }
  }

  /** Reports what is pending now; resolves once the report is done (or has failed and been kept). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flushing;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const reports = [...batch].map(([linkId, entry]) => ({ linkId, ...entry }));
    this.flushing = this.recorder
      .recordViews(reports, `share-link-views-${Date.now()}`)
      .catch((error: unknown) => {
        this.options.logger?.warn({ event: "share_link.views_unreported", links: reports.length, err: error });
        for (const report of reports) {
          const entry = this.pending.get(report.linkId);
          if (entry) {
            entry.views += report.views;
            if (entry.lastViewedAt < report.lastViewedAt) entry.lastViewedAt = report.lastViewedAt;
          } else
            this.pending.set(report.linkId, {
              secret: report.secret,
              views: report.views,
              lastViewedAt: report.lastViewedAt,
            });
        }
        if (!this.timer) {
          this.timer = setTimeout(() => void this.flush(), this.options.flushMs);
          this.timer.unref();
        }
      })
      .finally(() => {
        this.flushing = null;
      });
    await this.flushing;
  }
}
