// `npm run erase -- --user ID | --email ADDRESS`: erases an account as DELETE /me does (shared/users/erase-user.ts),
// for an operator answering an erasure request. Runs beside the services or while they are stopped; a running
// process may keep using a key it cached for up to ERASURE_KEY_CACHE_MS. Erasing a single page or folder's
// content (`--page`, `--folder`) is not available yet: it needs page content sealed under page keys.
import { randomUUID } from "node:crypto";
import { loadConfig } from "../../shared/config/config.ts";
import { userIdSchema } from "../../shared/kernel/ids.ts";
import { eraseUser } from "../../shared/users/erase-user.ts";
import { normalizeEmail } from "../../shared/users/user.decider.ts";
import { openReadStore, openSealedEventStore } from "../embedded-stores.ts";
import { sentMailFor } from "../embedded-wiring.ts";
import { parseEraseArgs, type EraseArgs } from "../projector/operator-args.ts";

const USAGE = `usage: npm run erase -- --user ID | --email ADDRESS
  Erases the account: its keys are destroyed (its email, name and picture unreadable in the log and its
  backups), its tokens revoked, its own pages and folders purged, its kept mail deleted.
  (--page ID and --folder ID, erasing one item's content, are not available yet.)`;

let args: EraseArgs;
try {
  args = parseEraseArgs(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`erase: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
  process.exit(2);
}
const config = loadConfig();
const { eventStore, erasure } = await openSealedEventStore(config);
const readStore = await openReadStore(config);
try {
  const user = "user" in args ? await readStore.users.get(args.user) : await readStore.users.getByEmail(normalizeEmail(args.email));
  if (!user) {
    process.stderr.write("erase: no such account (erased already, or never registered)\n");
    process.exitCode = 1;
  } else {
    const userId = userIdSchema.parse(user.id);
    const context = { actorId: userId, correlationId: `erase-${randomUUID()}`, now: new Date() };
    const ports = { eventStore, views: readStore, keys: erasure.keys, addressHash: (address: string) => erasure.kek.addressHash(address), sentMail: sentMailFor(config) };
    const { position } = await eraseUser(ports, userId, context);
    process.stdout.write(`erased user ${userId}${position === null ? "" : ` (log position ${position})`}\n`);
  }
} finally {
  await readStore.close();
  await eventStore.close();
}
