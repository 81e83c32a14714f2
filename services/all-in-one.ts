// The embedded default: command API, query API, projector and notifier in one process on one HTTP port,
// over SQLite files in DATA_DIR. `npm start` runs this file.
import { startTracing, stopTracing } from "./wiring/tracing.ts";
import { tracing } from "../shared/tracing/tracing.port.ts";
import type { Logger } from "pino";
import { PrometheusMetrics } from "../shared/adapters/prometheus/prometheus.metrics.ts";
import type { EventStore } from "../shared/event-store/event-store.port.ts";
import type { ReadStore } from "../shared/read-store/read-store.port.ts";
import { loadConfig, type Config } from "../shared/config/config.ts";
import { registerApiReference } from "../shared/http/api-reference.ts";
import { closeApp } from "../shared/http/create-app.ts";
import { installAuthentication } from "../shared/http/guard.ts";
import { healthRoutes } from "../shared/http/health.routes.ts";
import { metricsRoute } from "../shared/http/metrics.routes.ts";
import { createLogger } from "../shared/logging/logger.ts";
import { CheckpointWatcher } from "../shared/read-store/checkpoint-watcher.ts";
import { registerCommandApi } from "./command-api/command-api.ts";
import { openReadStore, openWebhookDeliveries } from "./wiring/read-stores.ts";
import { appendingStore, openBlobStore, openSealedEventStore } from "./wiring/write-stores.ts";
import type { Erasure } from "./wiring/erasure.ts";
import { openLiveProjectionStore, startProjector, type RunningProjector } from "./wiring/projector.ts";
import { apiAppFor, authenticatorFor, heavyWorkFor, rateLimitsFor, type Clock } from "./wiring/api-server.ts";
import { busFor, busReachability } from "./wiring/bus.ts";
import { commandApiPorts, inProcessWriteSide, registerAccessRoutes } from "./wiring/command-api.ts";
import { queryApiPorts } from "./wiring/query-api.ts";
import { startNotifier } from "./wiring/notifier.ts";
import { runUntilSignalled } from "./lifecycle.ts";
import type { NotificationDelivery } from "./notifier/notification-delivery.ts";
import { Publisher } from "./projector/publisher.ts";
import { registerQueryApi } from "./query-api/query-api.ts";
import { listenOn } from "../shared/http/listen.ts";
import { InProcessShareLinkViews } from "../shared/adapters/in-process/in-process.share-link-views.ts";

/** What a test gives the process besides its configuration. */
export interface AllInOneHooks {
  /** Certificates the client metadata fetch trusts besides the system's (a document served over TLS on loopback). */
  readonly clientMetadataCa?: string;
}

export interface RunningServer {
  readonly url: string;
  readonly config: Config;
  readonly logger: Logger;
  readonly eventStore: EventStore;
  readonly readStore: ReadStore;
  /** The key store and the key-encryption key beside the event store. */
  readonly erasure: Erasure;
  readonly projector: RunningProjector;
  /** Notification emails at once and the daily digest (a test sends the digests by calling it). */
  readonly notificationDelivery: NotificationDelivery;
  close(): Promise<void>;
}

export async function startAllInOne(
  config: Config,
  logger: Logger = createLogger(config.LOG_LEVEL),
  clock: Clock = () => new Date(),
  hooks: AllInOneHooks = {},
): Promise<RunningServer> {
  // Before any store opens: the event store traces its appends only when tracing is on by then.
  const traced = !tracing().enabled && (await startTracing(config, "all-in-one")).enabled;
  const metrics = new PrometheusMetrics();
  const { eventStore, erasure } = await openSealedEventStore(config);
  // One worker pool for the process, shared by the import (command side), the export and the search's ranking
  // (query side, and the MCP tools), and one cap of diffs per user, shared by the diff route and the MCP tool.
  const work = heavyWorkFor(config);
  const readStore = await openReadStore(config, metrics, work.pool);
  const watcher = new CheckpointWatcher(readStore, { projectorInProcess: true });
  const projectionStore = await openLiveProjectionStore(config, { eventStore, logger });
  const blobs = await openBlobStore(config);
  const bus = busFor(config, "all-in-one", { logger, metrics });
  const webhookDeliveries = await openWebhookDeliveries(config);
  const notifier = await startNotifier(config, {
    bus,
    eventStore,
    readStore,
    webhookDeliveries,
    logger,
    clock,
    metrics,
  });
  const projector = await startProjector(config, { eventStore, store: projectionStore, watcher, logger, metrics });
  const publisher = new Publisher({
    eventStore,
    bus,
    projection: watcher,
    notifications: readStore.notifications,
    logger,
    metrics,
  });
  await publisher.start();
  notifier.recover();

  // One process, so the query side's write side is the command side's, called in memory.
  const writeSide = inProcessWriteSide({ eventStore, readStore, erasure }, logger, clock, metrics);
  const rateLimits = { ...rateLimitsFor(config, "all-in-one", { logger, metrics }), now: () => clock().getTime() };
  const app = apiAppFor(config, { logger, metrics, rateLimits });
  const authenticator = authenticatorFor(
    config,
    { views: readStore, writeSide, projection: watcher, logger, clock },
    { createSessionSecret: true, metrics },
  );
  installAuthentication(app, authenticator);
  await registerApiReference(app);
  healthRoutes(app, { eventStore, readStore, projector, dependencies: { bus: busReachability(bus) } });
  metricsRoute(app, metrics, { token: config.METRICS_TOKEN ?? null });
  const commandPorts = commandApiPorts(
    config,
    { eventStore, readStore, blobs, webhookDeliveries, erasure },
    watcher,
    logger,
    clock,
    metrics,
    work,
  );
  await registerCommandApi(app, commandPorts);
  await registerAccessRoutes(app, config, {
    command: commandPorts,
    authenticator,
    rateLimits,
    ...(hooks.clientMetadataCa ? { clientMetadataCa: hooks.clientMetadataCa } : {}),
  });
  const shareLinkViews = new InProcessShareLinkViews({
    eventStore: appendingStore(eventStore, metrics),
    views: readStore,
    clock,
  });
  await registerQueryApi(
    app,
    queryApiPorts(
      config,
      { views: readStore, blobs, webhookDeliveries },
      watcher,
      writeSide,
      clock,
      { views: shareLinkViews, guessCounters: rateLimits.counters, logger },
      metrics,
      work,
    ),
  );
  const url = await listenOn(app, config.PORT, config.HOST);
  logger.info({ event: "server.started", url, dataDir: config.DATA_DIR, mode: "all-in-one" });

  return {
    url,
    config,
    logger,
    eventStore,
    readStore,
    erasure,
    projector,
    notificationDelivery: notifier.notificationDelivery,
    async close() {
      await closeApp(app);
      await publisher.stop();
      await rateLimits.counters.close();
      await projector.stop();
      await notifier.stop();
      await webhookDeliveries.close();
      await bus.close();
      watcher.close();
      await projectionStore.close();
      await blobs.close();
      await readStore.close();
      await eventStore.close();
      if (traced) await stopTracing();
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runUntilSignalled("all-in-one", async () => {
    const running = await startAllInOne(loadConfig());
    process.stderr.write(
      `workspace: listening on ${running.url}\n` +
        `workspace: sign in with  SESSION=$(npm run -s session -- --email you@example.com --name You)  then  curl -b "app-auth.session_token=$SESSION" ${running.url}/api/v1/me\n`,
    );
    return running;
  });
}
