// Share-link views reported by a query node of the split deployment to the command API's internal route.
import { z } from "zod";
import type { ShareLinkViewRecorder, ShareLinkViewReport } from "../../share-links/share-link-views.port.ts";

export const SHARE_LINK_VIEWS_PATH = "/internal/v1/share-link-views";

/** At most this many links per report: a node with more sends several. */
const MAX_VIEW_REPORTS = 500;

export const shareLinkViewReportsBody = z.object({
  reports: z
    .array(
      z.object({
        linkId: z.uuid(),
        secret: z.string().max(100),
        views: z.number().int().min(1).max(1_000_000_000),
        lastViewedAt: z.iso.datetime(),
      }),
    )
    .min(1)
    .max(MAX_VIEW_REPORTS),
});

export class CommandApiShareLinkViews implements ShareLinkViewRecorder {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async recordViews(reports: readonly ShareLinkViewReport[], correlationId: string): Promise<void> {
    for (let start = 0; start < reports.length; start += MAX_VIEW_REPORTS) {
      const body = JSON.stringify({ reports: reports.slice(start, start + MAX_VIEW_REPORTS) });
      const response = await fetch(new URL(SHARE_LINK_VIEWS_PATH, this.baseUrl), {
        method: "POST",
        headers: { "content-type": "application/json", "x-request-id": correlationId },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await response.body?.cancel();
      if (!response.ok) throw new Error(`the command API answered ${response.status} to a view report`);
    }
  }
}
