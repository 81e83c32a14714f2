// The projector on its own: follows the event store in DATA_DIR and keeps the read models there up to date.
import { openEmbeddedEventStore, openEmbeddedProjectionStore } from "../embedded-stores.ts";
import { runUntilSignalled } from "../lifecycle.ts";
import { loadConfig } from "../../shared/config/config.ts";
import { createLogger } from "../../shared/logging/logger.ts";
import { Projector } from "./projector.ts";

await runUntilSignalled("projector", async () => {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, "projector");
  const eventStore = openEmbeddedEventStore(config);
  const store = openEmbeddedProjectionStore(config);
  const projector = new Projector({ eventStore, store, logger });
  await projector.start();
  logger.info({ event: "projector.started", checkpoint: projector.checkpoint });
  return {
    async close() {
      await projector.stop();
      await store.close();
      await eventStore.close();
    },
  };
});
