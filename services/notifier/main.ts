// The notifier on its own over the embedded stores: it follows the event store from the start (attempts
// already started or delivered are skipped, so nothing is sent twice) and writes emails to DATA_DIR/outbox.
import { openEmbeddedEventStore, openEmbeddedReadStore } from "../embedded-stores.ts";
import { mailerFor, publicBaseUrl } from "../embedded-wiring.ts";
import { runUntilSignalled } from "../lifecycle.ts";
import { InProcessBus } from "../../shared/adapters/in-process/in-process.bus.ts";
import { toBusMessage } from "../../shared/bus/integration-events.ts";
import { loadConfig } from "../../shared/config/config.ts";
import { parseRecorded } from "../../shared/events.ts";
import { createLogger } from "../../shared/logging/logger.ts";
import { Notifier } from "./notifier.ts";

await runUntilSignalled("notifier", async () => {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, "notifier");
  const eventStore = openEmbeddedEventStore(config);
  const readStore = openEmbeddedReadStore(config);
  const bus = new InProcessBus();
  const mailer = mailerFor(config);
  const notifier = new Notifier({ bus, eventStore, readModels: readStore, mailer, logger, clock: () => new Date(), publicBaseUrl: publicBaseUrl(config) });
  await notifier.start();
  const feed = eventStore.subscribe(0, (batch) => bus.publish(batch.map((recorded) => toBusMessage(parseRecorded(recorded)))));
  logger.info({ event: "notifier.started" });
  return {
    async close() {
      await feed.stop();
      await notifier.stop();
      await bus.close();
      await readStore.close();
      await eventStore.close();
    },
  };
});
