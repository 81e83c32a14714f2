// `npm run projections -- --list | --retry | --skip EVENT_ID [--projection NAME]`: the events a projection
// could not apply and parked (services/projector/parked-events.ts). Runs beside the live services, on SQLite
// (DATA_DIR) or MongoDB (MONGODB_URL).
import { loadConfig } from "../../shared/config/config.ts";
import { createLogger } from "../../shared/logging/logger.ts";
import type { ParkedEvent } from "../../shared/read-store/parked-events.port.ts";
import { onProjectionStore, openProjectionStore } from "../wiring/projector.ts";
import { openEventStore } from "../wiring/write-stores.ts";
import { parseProjectionsArgs, type ProjectionsArgs } from "../operations/operations-args.ts";
import { parkedEvents, retryParked, skipParked } from "./parked-events.ts";

const USAGE = `usage: npm run projections -- --list | --retry | --skip EVENT_ID [--projection NAME]
  --list    the parked events, oldest first: position, event id and type, projection, why, attempts, error
  --retry   applies every parked event again, each by its own projection, in log order
  --skip    leaves the event out of the projections it is parked for (or only --projection NAME) for good,
            then retries the events of its stream parked behind it`;

let args: ProjectionsArgs;
try {
  args = parseProjectionsArgs(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`projections: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
  process.exit(2);
}
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, "projections");
const line = (record: ParkedEvent) =>
  `#${record.position}  ${record.eventId}  ${record.type}  ${record.projection}  ${record.cause}  attempts ${record.attempts}  since ${record.parkedAt}  ${record.error}`;
const say = (text: string) => process.stdout.write(`${text}\n`);

const eventStore = await openEventStore(config);
const store = await openProjectionStore(config);
try {
  await onProjectionStore(store, async (typed) => {
    if (args.action === "list") {
      let count = 0;
      for await (const record of parkedEvents(typed)) {
        say(line(record));
        count += 1;
      }
      say(`${count} parked`);
    } else if (args.action === "retry") {
      const { applied, stillParked } = await retryParked({ eventStore, store: typed, logger });
      for (const record of applied) say(`applied ${line(record)}`);
      for (const record of stillParked) say(`still parked ${line(record)}`);
      say(`${applied.length} applied, ${stillParked.length} still parked`);
    } else {
      const { skipped, applied, stillParked } = await skipParked({
        eventStore,
        store: typed,
        logger,
        eventId: args.eventId,
        projection: args.projection,
      });
      if (skipped.length === 0) {
        process.stderr.write(
          `projections: no parked event ${args.eventId}${args.projection ? ` for ${args.projection}` : ""}\n`,
        );
        process.exitCode = 1;
        return;
      }
      for (const record of skipped) say(`skipped ${line(record)}`);
      for (const record of applied) say(`applied ${line(record)}`);
      say(
        `${skipped.length} skipped, ${applied.length} applied behind it, ${stillParked.length} still parked behind it`,
      );
    }
  });
} finally {
  await store.close();
  await eventStore.close();
}
