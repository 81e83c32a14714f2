// `npm run erase -- --user ID | --email ADDRESS | --page ID | --folder ID`: erases an account as DELETE /me does
// (shared/users/erase-user.ts), an address only ever invited (shared/sharing/erase-address.ts), or one page's or folder's content, live or in the trash, as a purge from the
// trash does (shared/trash/erase-item.ts), for an operator answering an erasure request. Runs beside the
// services or while they are stopped; a running process may keep using a key it cached for up to
// ERASURE_KEY_CACHE_MS.
import { randomUUID } from "node:crypto";
import { loadConfig } from "../../shared/config/config.ts";
import { userIdSchema, type UserId } from "../../shared/kernel/ids.ts";
import { eraseAddress } from "../../shared/sharing/erase-address.ts";
import { eraseItem } from "../../shared/trash/erase-item.ts";
import { accountHolding, eraseUser } from "../../shared/users/erase-user.ts";
import { userCommands } from "../../shared/users/user.commands.ts";
import { normalizeEmail } from "../../shared/users/user.decider.ts";
import { openBlobStore, openSealedEventStore } from "../wiring/write-stores.ts";
import { openReadStore } from "../wiring/read-stores.ts";
import { readModelCopiesFor, sentMailFor } from "../wiring/erasure.ts";
import { parseEraseArgs, type EraseArgs } from "../projector/operator-args.ts";

const USAGE = `usage: npm run erase -- --user ID | --email ADDRESS | --page ID | --folder ID
  --user, --email: erases the account: its keys are destroyed (its email, name and picture unreadable in the log
    and its backups), its tokens revoked, its own pages and folders purged, its kept mail deleted.
    --email of an address without an account erases the address: its invitations are cancelled and no longer
    name it, its key is destroyed, its kept mail deleted.
  --page, --folder: erases the item's content (a folder's with everything below it), live or in the trash: it is
    deleted if live, purged, and its key destroyed (title, markdown, comments, names unreadable in the log).`;

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
// A purged page's attachments lose their bytes, as on a purge from the trash.
const blobs = await openBlobStore(config);
const correlationId = `erase-${randomUUID()}`;
// What every erasure reaches: the log and its keys, the read models, blobs, kept mail and audit copies.
const ports = {
  eventStore,
  views: readStore,
  keys: erasure.keys,
  blobs,
  addressHash: (address: string) => erasure.kek.addressHash(address),
  sentMail: sentMailFor(config),
  readModelCopies: readModelCopiesFor(config),
};
const registered = async (userId: UserId): Promise<UserId | null> =>
  (await userCommands.load(eventStore, userId)).registered ? userId : null;
const at = (position: number | null) => (position === null ? "" : ` (log position ${position})`);
try {
  if ("page" in args || "folder" in args) {
    const [type, id] = "page" in args ? (["page", args.page] as const) : (["folder", args.folder] as const);
    const outcome = await eraseItem(ports, type, id, (ownerId) => ({
      actorId: userIdSchema.parse(ownerId),
      correlationId,
      now: new Date(),
    }));
    if (!outcome.found) {
      process.stderr.write(`erase: no such ${type}\n`);
      process.exitCode = 1;
    } else {
      process.stdout.write(`erased ${type} ${id}${at(outcome.position)}\n`);
    }
  } else {
    // From the log, not the read models: an account whose erasure was cut short is gone from those already.
    const userId =
      "user" in args
        ? await registered(userIdSchema.parse(args.user))
        : await accountHolding(eventStore, normalizeEmail(args.email));
    if (userId === null && "email" in args) {
      // An address without an account may still be named by invitations, their mail and its key.
      const { invitations, position } = await eraseAddress(ports, normalizeEmail(args.email), (invitedBy) => ({
        actorId: invitedBy,
        correlationId,
        now: new Date(),
      }));
      process.stdout.write(
        `erased an address without an account: ${invitations} invitation${invitations === 1 ? "" : "s"}${at(position)}\n`,
      );
    } else if (userId === null) {
      process.stderr.write("erase: no such account (erased already, or never registered)\n");
      process.exitCode = 1;
    } else {
      const context = { actorId: userId, correlationId, now: new Date() };
      const { position } = await eraseUser(ports, userId, context);
      process.stdout.write(`erased user ${userId}${at(position)}\n`);
    }
  }
} finally {
  await blobs.close();
  await readStore.close();
  await eventStore.close();
}
