// The erasures the log migration repeats, over a real SQLite source log written before sealing: the copy of an
// erasing event destroys the keys of what it erased while the log still held it in plaintext.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteEventStore } from "../../shared/adapters/sqlite/sqlite.event-store.ts";
import { toNewEvents } from "../../shared/commands/new-events.ts";
import { subjectsErasedBy, type ErasureLookup } from "../../shared/erasure/erasures-repeated.ts";
import { KeyEncryptionKey } from "../../shared/erasure/key-encryption-key.ts";
import { subjects } from "../../shared/erasure/key-store.port.ts";
import { invitationIdSchema, pageIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import { tempDir } from "../support/temp-dir.ts";

const kek = new KeyEncryptionKey("k".repeat(40));
const ann = userIdSchema.parse(randomUUID());
const context = { actorId: ann, correlationId: "test", now: new Date("2026-11-01T10:00:00Z") };

let dir: { path: string; remove: () => Promise<void> };
let source: SqliteEventStore;
let lookup: ErasureLookup;
beforeEach(async () => {
  dir = await tempDir();
  source = new SqliteEventStore(join(dir.path, "events.sqlite"));
  lookup = {
    readSource: async (stream) => (await source.read(stream)).events,
    addressHash: (address) => kek.addressHash(address),
  };
});
afterEach(async () => {
  await source.close();
  await dir.remove();
});

describe("an erasure repeated by the log migration", () => {
  it("of an invited address destroys the key of the address its invitation named in plaintext", async () => {
    const invitationId = invitationIdSchema.parse(randomUUID());
    const access = {
      targetType: "page" as const,
      targetId: pageIdSchema.parse(randomUUID()),
      permission: "view" as const,
    };
    const queued = {
      type: "InvitationQueued" as const,
      data: {
        invitationId,
        email: "Only.Invited@example.com",
        access,
        invitedBy: ann,
        expiresAt: "2026-11-08T10:00:00.000Z",
      },
    };
    await source.append(
      `invitation-${invitationId}`,
      toNewEvents([queued, { type: "InvitationAddressErased", data: { invitationId } }], context),
      "no_stream",
    );
    const [, erasing] = (await source.read(`invitation-${invitationId}`)).events;
    if (!erasing) throw new Error("the erasing event was not written");
    expect(await subjectsErasedBy(erasing, lookup)).toEqual([
      subjects.address(kek.addressHash("only.invited@example.com")),
    ]);
  });
});
