// The notifier delivers invitation emails to DATA_DIR/outbox and records InvitationDelivered; a resend sends
// another email; nothing is sent twice for one queued delivery.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type TestUser } from "../support/server.ts";
import { createPage, share, unknownAddress } from "../support/workspace-builders.ts";

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
  const mails = await Promise.all(names.filter((name) => name.endsWith(".eml")).map((name) => readFile(join(outbox, name), "utf8")));
  return mails.filter((mail) => mail.includes(`To: ${address}\r\n`));
}

async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const deliveryStatus = async (pageId: string) =>
  ((await owner.get(`/shares/entity/page/${pageId}`)).body.pendingInvitations as Array<{ deliveryStatus: string }>)[0]?.deliveryStatus;

describe("invitation delivery", () => {
  it("writes one email for a queued invitation and marks it delivered", async () => {
    const pageId = await createPage(owner);
    const email = unknownAddress();
    expect((await share(owner, "page", pageId, email, "view")).status).toBe(202);
    const mails = await eventually(() => emailsTo(email), (found) => found.length === 1, "the invitation email");
    expect(mails[0]).toContain("Subject: Olivia Owner invited you to a page");
    expect(mails[0]).toContain(`Sign in with this address (${email}) to accept.`);
    await eventually(() => deliveryStatus(pageId), (status) => status === "delivered", "deliveryStatus delivered");
    const events = await server.internals.deps.eventStore.readAll(0, 100_000);
    expect(events.filter((e) => e.type === "InvitationDelivered")).toHaveLength(1);
  });

  it("sends again on resend, and moves the status back to pending until then", async () => {
    const pageId = await createPage(owner);
    const email = unknownAddress();
    const queued = await share(owner, "page", pageId, email, "comment");
    const invitationId = String((queued.body.invitation as { id: string }).id);
    await eventually(() => deliveryStatus(pageId), (status) => status === "delivered", "the first delivery");
    const resent = await owner.post(`/shares/invitations/${invitationId}/resend`);
    expect(resent.status).toBe(200);
    await eventually(() => emailsTo(email), (found) => found.length === 2, "a second email");
    await eventually(() => deliveryStatus(pageId), (status) => status === "delivered", "the second delivery");
  });

  it("writes a well-formed message: headers, a blank line, then the text", async () => {
    const pageId = await createPage(owner);
    const email = unknownAddress();
    expect((await share(owner, "page", pageId, email, "view")).status).toBe(202);
    const [mail] = await eventually(() => emailsTo(email), (found) => found.length === 1, "the email");
    const [head, body] = (mail ?? "").split("\r\n\r\n");
    expect(head?.split("\r\n").every((line) => /^[A-Za-z-]+: \S/.test(line))).toBe(true);
    expect(head).toContain("Content-Type: text/plain; charset=utf-8");
    expect(body).toContain("invited you to a page with view access.");
  });
});
