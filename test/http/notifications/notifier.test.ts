// The notifier delivers invitation emails to DATA_DIR/outbox and records InvitationDelivered; a resend sends
// another email; nothing is sent twice for one queued delivery.
import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pino } from "pino";
import { rebuildReadModels } from "../../../services/projector/rebuild.ts";
import { toNewEvents } from "../../../shared/commands/new-events.ts";
import { onProjectionStore, openProjectionStore } from "../../../services/wiring/projector.ts";
import { openEventStore } from "../../../services/wiring/write-stores.ts";
import { invitationIdSchema, userIdSchema } from "../../../shared/kernel/ids.ts";
import { parseMimeMessage } from "../../support/mime-message.ts";
import { TestServer, type TestUser } from "../../support/server.ts";
import { createPage, share, unknownAddress } from "../../support/workspace-builders.ts";
import { until } from "../../support/poll.ts";

let server: TestServer;
let owner: TestUser;
beforeAll(async () => {
  server = await TestServer.start();
  owner = await server.signIn("owner", { name: "Olivia Owner" });
  expect((await owner.get("/me")).status).toBe(200);
});
afterAll(async () => {
  await server.stop();
});

async function emailsTo(address: string): Promise<string[]> {
  const outbox = join(server.dataDir, "outbox");
  const names = await readdir(outbox).catch(() => []);
  const mails = await Promise.all(
    names.filter((name) => name.endsWith(".eml")).map((name) => readFile(join(outbox, name), "utf8")),
  );
  return mails.filter((mail) => mail.includes(`To: ${address}\r\n`));
}

const deliveryStatus = async (pageId: string) =>
  ((await owner.get(`/shares/entity/page/${pageId}`)).body.pendingInvitations as Array<{ deliveryStatus: string }>)[0]
    ?.deliveryStatus;

describe("invitation delivery", () => {
  it("writes one email for a queued invitation and marks it sent", async () => {
    const pageId = await createPage(owner);
    const email = unknownAddress();
    expect((await share(owner, "page", pageId, email, "view")).status).toBe(202);
    const mails = await until(
      () => emailsTo(email),
      (found) => found.length === 1,
      "the invitation email",
    );
    expect(mails[0]).toContain("Subject: Olivia Owner invited you to a page");
    expect(mails[0]).toContain(`Sign in with this address (${email}) to accept.`);
    await until(
      () => deliveryStatus(pageId),
      (status) => status === "sent",
      "deliveryStatus sent",
    );
    const events = await server.internals.eventStore.readAll(0, 100_000);
    expect(events.filter((e) => e.type === "InvitationDelivered")).toHaveLength(1);
  });

  it("sends again on resend, and moves the status back to pending until then", async () => {
    const pageId = await createPage(owner);
    const email = unknownAddress();
    const queued = await share(owner, "page", pageId, email, "comment");
    const invitationId = String((queued.body.invitation as { id: string }).id);
    await until(
      () => deliveryStatus(pageId),
      (status) => status === "sent",
      "the first delivery",
    );
    const resent = await owner.post(`/shares/invitations/${invitationId}/resend`);
    expect(resent.status).toBe(200);
    await until(
      () => emailsTo(email),
      (found) => found.length === 2,
      "a second email",
    );
    await until(
      () => deliveryStatus(pageId),
      (status) => status === "sent",
      "the second delivery",
    );
  });

  it("writes a well-formed message: headers, a blank line, then the text and its HTML alternative", async () => {
    const pageId = await createPage(owner);
    const email = unknownAddress();
    expect((await share(owner, "page", pageId, email, "view")).status).toBe(202);
    const [mail] = await until(
      () => emailsTo(email),
      (found) => found.length === 1,
      "the email",
    );
    const [head] = (mail ?? "").split("\r\n\r\n");
    expect(head?.split("\r\n").every((line) => /^[A-Za-z-]+: \S/.test(line))).toBe(true);
    const parsed = parseMimeMessage(mail ?? "");
    expect(parsed.text).toContain("invited you to a page with view access.");
    expect(parsed.html).toContain("invited you to a page with view access.");
  });
});

describe("after a crash", () => {
  it("delivers an invitation that was projected but never sent", async () => {
    const pageId = await createPage(owner);
    const email = unknownAddress();
    const invitationId = invitationIdSchema.parse(randomUUID());
    await server.restart(async () => {
      // Queued and projected while no notifier ran: the bus message is gone, only the read models know.
      const { config } = server.internals;
      const eventStore = await openEventStore(config);
      const context = { actorId: userIdSchema.parse(owner.id), correlationId: randomUUID(), now: new Date() };
      const access = { targetType: "page" as const, targetId: pageId, permission: "view" as const };
      const queued = {
        invitationId,
        email,
        access,
        invitedBy: userIdSchema.parse(owner.id),
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      };
      await eventStore.append(
        `invitation-${invitationId}`,
        toNewEvents([{ type: "InvitationQueued", data: queued }], context),
        "no_stream",
      );
      const store = await openProjectionStore(config);
      await onProjectionStore(store, (typed) =>
        rebuildReadModels({ eventStore, store: typed, logger: pino({ level: "silent" }) }),
      );
      await store.close();
      await eventStore.close();
    });
    const mails = await until(
      () => emailsTo(email),
      (found) => found.length === 1,
      "the recovered email",
    );
    expect(mails[0]).toContain(`To: ${email}`);
    await until(
      () => deliveryStatus(pageId),
      (status) => status === "sent",
      "deliveryStatus sent",
    );
  });
});
