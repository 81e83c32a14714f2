// Acceptance that a crash interrupted completes at the user's next request to a new process.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toNewEvents } from "../../../shared/commands/new-events.ts";
import { openEventStore } from "../../../services/wiring/write-stores.ts";
import { userIdSchema } from "../../../shared/kernel/ids.ts";
import { TestServer } from "../../support/server.ts";
import { createPage, share, unknownAddress } from "../../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

describe("an interrupted acceptance", () => {
  it("is completed at the invitee's first request after a restart", async () => {
    const owner = await server.registered("owner");
    const pageId = await createPage(owner, { title: "Shared later" });
    const email = unknownAddress();
    expect((await share(owner, "page", pageId, email, "comment")).status).toBe(202);
    const id = randomUUID();
    // The process stopped right after the account was recorded, before its invitations were accepted.
    await server.restart(async () => {
      const store = await openEventStore(server.internals.config);
      const userId = userIdSchema.parse(id);
      const context = { actorId: userId, correlationId: randomUUID(), now: new Date() };
      await store.append(
        `email-${email}`,
        toNewEvents([{ type: "EmailReserved", data: { email, userId } }], context),
        "no_stream",
      );
      await store.append(
        `user-${id}`,
        toNewEvents([{ type: "UserRegistered", data: { userId, email, name: "Late", image: null } }], context),
        "no_stream",
      );
      await store.close();
    });
    const invitee = await server.signIn("late", { id, email, name: "Late" });
    const read = await invitee.get(`/pages/${pageId}`);
    expect(read.status).toBe(200);
    expect(read.body.permission).toBe("comment");
    expect((await owner.get(`/shares/entity/page/${pageId}`)).body.pendingInvitations).toEqual([]);
  });
});
