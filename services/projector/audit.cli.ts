// `npm run audit -- --entity <id>`: prints the history of a page, folder or thread with the actor and the
// correlation id of every change, straight from the event store (DATA_DIR, or EVENTSTORE_URL; names from the read models, DATA_DIR or MONGODB_URL).
import { loadConfig } from "../../shared/config/config.ts";
import { openEventStore } from "../wiring/write-stores.ts";
import { openReadStore } from "../wiring/read-stores.ts";
import { auditTrail } from "./audit.ts";
import { parseAuditArgs } from "./operator-args.ts";

let entity: string;
try {
  entity = parseAuditArgs(process.argv.slice(2)).entity;
} catch (error) {
  process.stderr.write(`audit: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
const config = loadConfig();
const eventStore = await openEventStore(config);
const readStore = await openReadStore(config);
process.stdout.write(`${(await auditTrail(eventStore, readStore.users, entity)).join("\n")}\n`);
await readStore.close();
await eventStore.close();
