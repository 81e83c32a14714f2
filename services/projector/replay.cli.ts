// `npm run replay`: rebuilds every read model in DATA_DIR from the full event history, with a progress bar and
// the final events/s. Stop the server first: the projector must not write while the read models are rebuilt.
import { openEventStore, openEmbeddedProjectionStore } from "../embedded-stores.ts";
import { loadConfig } from "../../shared/config/config.ts";
import { createLogger } from "../../shared/logging/logger.ts";
import { rebuildReadModels } from "./rebuild.ts";

const config = loadConfig();
const eventStore = openEventStore(config);
const store = openEmbeddedProjectionStore(config);
const width = 30;
const result = await rebuildReadModels({
  eventStore,
  store,
  logger: createLogger(config.LOG_LEVEL, "replay"),
  onProgress: ({ applied, head }) => {
    const share = head === 0 ? 1 : applied / head;
    const filled = Math.round(share * width);
    process.stderr.write(`\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${applied.toLocaleString()} / ${head.toLocaleString()} events`);
  },
});
process.stderr.write("\n");
process.stdout.write(`replayed ${result.applied.toLocaleString()} events in ${result.seconds.toFixed(1)} s (${Math.round(result.applied / Math.max(result.seconds, 1e-9)).toLocaleString()} events/s)\n`);
await store.close();
await eventStore.close();
