// The ports of the query API, as a query node and the all-in-one build them: read models, blob reader, webhook
// deliveries, and the write side it asks for what must be recorded (the command API over HTTP on a query node,
// in memory in the all-in-one). Nothing here reaches the event store or the command side.
import type { Logger } from "pino";
import type { WriteSide } from "../../shared/auth/write-side.port.ts";
import type { BlobReader } from "../../shared/blobs/blob-store.port.ts";
import type { Config } from "../../shared/config/config.ts";
import type { Metrics } from "../../shared/metrics/metrics.port.ts";
import type { RateLimitCounters } from "../../shared/rate-limit/rate-limit-counters.port.ts";
import type { ProjectionProgress } from "../../shared/read-store/checkpoint-watcher.ts";
import type { ReadModels } from "../../shared/read-store/read-store.port.ts";
import { timedProgress } from "../../shared/read-store/timed-progress.ts";
import { tracedProgress } from "../../shared/read-store/traced-progress.ts";
import { SharedPageRenderer } from "../../shared/share-links/render/render-shared-page.ts";
import type { ShareLinkViewRecorder } from "../../shared/share-links/share-link-views.port.ts";
import { ShareLinkViewCounter } from "../../shared/share-links/view-counter.ts";
import type { WebhookDeliveries } from "../../shared/webhooks/webhook-deliveries.port.ts";
import type { QueryApiPorts } from "../query-api/query-api-ports.ts";
import { heavyWorkFor, type Clock, type HeavyWork } from "./api-server.ts";
import { unsubscribeTokensFor } from "./secret-keys.ts";

export function queryApiPorts(
  config: Config,
  stores: { views: ReadModels; blobs: BlobReader; webhookDeliveries: WebhookDeliveries },
  projection: ProjectionProgress,
  writeSide: WriteSide,
  clock: Clock,
  publicPages: {
    readonly views: ShareLinkViewRecorder;
    readonly guessCounters: RateLimitCounters;
    readonly logger?: Logger;
  },
  metrics?: Metrics,
  work: HeavyWork = heavyWorkFor(config),
): QueryApiPorts {
  const { pool, diffSlots } = work;
  return {
    ...stores,
    projection: tracedProgress(metrics ? timedProgress(projection, "read", metrics) : projection, "read"),
    writeSide,
    clock,
    consistencyWaitMs: config.CONSISTENCY_WAIT_MS,
    changeFeed: { heartbeatMs: config.CHANGE_FEED_HEARTBEAT_MS, maxPerUser: config.CHANGE_FEED_MAX_PER_USER },
    trashRetentionDays: config.TRASH_RETENTION_DAYS,
    pool,
    diffSlots,
    exports: { maxPerUser: config.EXPORT_MAX_PER_USER, maxConcurrent: config.EXPORT_MAX_CONCURRENT },
    unsubscribe: unsubscribeTokensFor(config),
    publicPages: {
      viewCounter: new ShareLinkViewCounter(publicPages.views, {
        flushMs: config.SHARE_LINK_VIEW_FLUSH_MS,
        clock,
        ...(publicPages.logger ? { logger: publicPages.logger } : {}),
      }),
      guessCounters: publicPages.guessCounters,
      renderer: new SharedPageRenderer(pool),
    },
  };
}
