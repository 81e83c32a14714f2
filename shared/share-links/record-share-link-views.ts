// Reported views into ShareLinkViewed events, one per link and report. The event's actor is the link's creator:
// a public viewer has no account, and the creator is the one on whose behalf the link shows anything.
import type { EventStore } from "../event-store/event-store.port.ts";
import { shareLinkIdSchema, userIdSchema } from "../kernel/ids.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { secretMatches } from "./share-link-secret.ts";
import { shareLinkCommands } from "./share-link.commands.ts";
import type { ShareLinkViewReport } from "./share-link-views.port.ts";

export async function recordShareLinkViews(
  ports: {
    readonly eventStore: EventStore;
    readonly views: Pick<ReadModels, "shareLinks">;
    readonly clock: () => Date;
  },
  reports: readonly ShareLinkViewReport[],
  correlationId: string,
): Promise<void> {
  for (const report of reports) {
    const link = await ports.views.shareLinks.get(report.linkId);
    if (!link || !secretMatches(report.secret, link.secretHash)) continue;
    const linkId = shareLinkIdSchema.parse(link.id);
    const context = { actorId: userIdSchema.parse(link.createdBy), correlationId, now: ports.clock() };
    await shareLinkCommands.handle(
      ports.eventStore,
      linkId,
      { type: "RecordShareLinkViews", linkId, views: report.views, lastViewedAt: report.lastViewedAt },
      context,
    );
  }
}
