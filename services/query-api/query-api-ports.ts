// What the query API's routes and its registration use: the ports, in a file of their own so that routes and
// registration both import it and neither imports the other.
import type { UnsubscribeTokens } from "../../shared/notifications/unsubscribe-token.ts";
import type { WriteSide } from "../../shared/auth/write-side.port.ts";
import type { BlobReader } from "../../shared/blobs/blob-store.port.ts";
import type { RateLimitCounters } from "../../shared/rate-limit/rate-limit-counters.port.ts";
import type { ProjectionProgress } from "../../shared/read-store/checkpoint-watcher.ts";
import type { ReadModels } from "../../shared/read-store/read-store.port.ts";
import type { SharedPageRenderer } from "../../shared/share-links/render/render-shared-page.ts";
import type { ShareLinkViewCounter } from "../../shared/share-links/view-counter.ts";
import type { WebhookDeliveries } from "../../shared/webhooks/webhook-deliveries.port.ts";
import type { CallerSlots } from "../../shared/workers/caller-slots.ts";
import type { WorkerPool } from "../../shared/workers/worker-pool.ts";
import type { ExportLimits } from "./exports/export-slots.ts";

export interface QueryApiPorts {
  readonly views: ReadModels;
  /** Uploaded images' bytes, read-only. */
  readonly blobs: BlobReader;
  readonly projection: ProjectionProgress;
  /** Asked how far the log reaches (a consistency token beyond the read models), and to record an export. */
  readonly writeSide: Pick<WriteSide, "headPosition" | "recordExport">;
  readonly clock: () => Date;
  readonly consistencyWaitMs: number;
  readonly changeFeed: { readonly heartbeatMs: number; readonly maxPerUser: number };
  /** The webhook delivery log, read-only here. */
  readonly webhookDeliveries: Pick<WebhookDeliveries, "list">;
  /** TRASH_RETENTION_DAYS: when the trash's items are purged. */
  readonly trashRetentionDays: number;
  /** The process's worker pool for CPU-heavy work (closed with the app). */
  readonly pool: WorkerPool;
  /** DIFFS_PER_USER: diffs one user may run at once in this process, one count for the route and the MCP tool. */
  readonly diffSlots: CallerSlots;
  /** EXPORT_MAX_PER_USER and EXPORT_MAX_CONCURRENT: vault exports at once. */
  readonly exports: ExportLimits;
  /** The public pages of share links: where their views are counted and password attempts bounded. */
  readonly publicPages: PublicPagePorts;
  /** Checks the tokens of notification emails' unsubscribe links; null when the server has no key for them. */
  readonly unsubscribe: UnsubscribeTokens | null;
}

/** What the public pages of share links use besides the read models and blobs. */
export interface PublicPagePorts {
  readonly viewCounter: ShareLinkViewCounter;
  /** Where password attempts are counted (the rate limits' counters: shared by every node through NATS KV). */
  readonly guessCounters: RateLimitCounters;
  /** Renders a page's markdown in the worker pool. */
  readonly renderer: SharedPageRenderer;
}
