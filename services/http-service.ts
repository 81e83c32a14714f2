// Starts one HTTP service on its own (split mode): its routes, /healthz and /readyz, over the embedded stores.
import type { Config } from "../shared/config/config.ts";
import { createApp, type App } from "../shared/http/create-app.ts";
import { createLogger } from "../shared/logging/logger.ts";
import type { Dependencies } from "../shared/app/dependencies.ts";
import { embeddedDependencies } from "./embedded-dependencies.ts";
import { healthRoutes } from "../shared/http/health.routes.ts";

export async function startHttpService(
  name: string,
  config: Config,
  register: (app: App, deps: Dependencies) => Promise<void>,
): Promise<{ url: string; close(): Promise<void> }> {
  const logger = createLogger(config.LOG_LEVEL, name);
  const deps = embeddedDependencies(config, logger);
  const app = createApp({ logger, bodyLimit: config.BODY_LIMIT_BYTES });
  healthRoutes(app, { eventStore: deps.eventStore, readStore: deps.readStore });
  await register(app, deps);
  const url = await app.listen({ port: config.PORT, host: config.HOST });
  logger.info({ event: "server.started", url, mode: name });
  return {
    url,
    async close() {
      await app.close();
      await deps.close();
    },
  };
}
