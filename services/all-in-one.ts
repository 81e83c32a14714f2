// The embedded default: command API, query API, projector and notifier in one process on one HTTP port,
// over SQLite files in DATA_DIR. `npm start` runs this file.
import { join } from "node:path";
import type { Logger } from "pino";
import type { Clock, Dependencies } from "../shared/app/dependencies.ts";
import { embeddedDependencies } from "./embedded-dependencies.ts";
import { openEmbeddedReadStore } from "./embedded-stores.ts";
import { healthRoutes } from "../shared/http/health.routes.ts";
import { runUntilSignalled } from "./lifecycle.ts";
import { loadConfig, type Config } from "../shared/config/config.ts";
import { createApp } from "../shared/http/create-app.ts";
import { createLogger } from "../shared/logging/logger.ts";
import { InProcessBus } from "../shared/adapters/in-process/in-process.bus.ts";
import { toBusMessage } from "../shared/bus/integration-events.ts";
import { OutboxMailer } from "../shared/adapters/outbox/outbox.mailer.ts";
import { registerCommandApi } from "./command-api/command-api.ts";
import { Notifier } from "./notifier/notifier.ts";
import { Projector } from "./projector/projector.ts";
import { registerQueryApi } from "./query-api/query-api.ts";

export interface RunningServer {
  readonly url: string;
  readonly deps: Dependencies;
  readonly projector: Projector;
  close(): Promise<void>;
}

export async function startAllInOne(
  config: Config,
  logger: Logger = createLogger(config.LOG_LEVEL),
  clock: Clock = () => new Date(),
): Promise<RunningServer> {
  const deps = embeddedDependencies(config, logger, clock);
  const { eventStore, readStore, watcher } = deps;
  const projectionStore = openEmbeddedReadStore(config);
  const bus = new InProcessBus();
  const notifier = new Notifier({ bus, eventStore, readModels: readStore, mailer: new OutboxMailer(join(config.DATA_DIR, "outbox")), logger, clock });
  await notifier.start();
  const projector = new Projector({
    eventStore,
    readStore: projectionStore,
    logger,
    watcher,
    afterCommit: (events) => bus.publish(events.map(toBusMessage)),
  });
  await projector.start();
  void notifier.recover().catch((error: unknown) => logger.warn({ event: "notifier.recovery_failed", err: error }));

  const app = createApp({ logger, bodyLimit: config.BODY_LIMIT_BYTES });
  healthRoutes(app, { eventStore, readStore });
  await registerCommandApi(app, deps);
  await registerQueryApi(app, deps);
  const url = await app.listen({ port: config.PORT, host: config.HOST });
  logger.info({ event: "server.started", url, dataDir: config.DATA_DIR, mode: "all-in-one" });

  return {
    url,
    deps,
    projector,
    async close() {
      await app.close();
      await projector.stop();
      await notifier.stop();
      await bus.close();
      await projectionStore.close();
      await deps.close();
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runUntilSignalled("all-in-one", () => startAllInOne(loadConfig()));
}
