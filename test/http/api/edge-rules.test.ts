// Smaller rules found when the service was tried as an adversary would: email length limits, the
// shape of a content body, and moves to where an item already is.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintSession } from "../../../shared/auth/session-verifier.ts";
import { Client, TestServer, TEST_SESSION_SECRET, type TestUser } from "../../support/server.ts";
import { addMember, createFolder, createPage, share } from "../../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

/** An address of exactly `total` octets whose local part has `local` octets. */
function addressOf(local: number, total: number): string {
  const domainLength = total - local - 1 - ".example".length;
  const labels: string[] = [];
  for (let left = domainLength; left > 0; left -= 61) labels.push("d".repeat(Math.min(60, left - (left > 60 ? 1 : 0))));
  const domain = `${labels.join(".")}.example`;
  const address = `${"l".repeat(local)}@${domain}`;
  if (address.length !== total) throw new Error(`built ${address.length} octets, not ${total}`);
  return address;
}

describe("email addresses follow RFC 5321's limits", () => {
  it("a local part over 64 octets or an address over 254 is refused wherever an address is taken", async () => {
    const ann = await server.registered("ann");
    const pageId = await createPage(ann);
    for (const address of [addressOf(65, 80), `${"x".repeat(300)}@example.com`, addressOf(64, 255)]) {
      for (const reply of [
        await share(ann, "page", pageId, address, "view"),
        await addMember(ann, address, "viewer"),
      ]) {
        expect(reply.status, address).toBe(400);
        expect(reply.body.error?.code).toBe("validation_failed");
      }
      // In a path, a parameter over 100 characters is refused as too long before its shape is looked at.
      const inPath = address.length > 100 ? 414 : 400;
      for (const reply of [
        await ann.post(`/shares/entity/page/${pageId}/invitations/by-email/${encodeURIComponent(address)}/resend`),
        await ann.post(`/shares/workspace/invitations/by-email/${encodeURIComponent(address)}/resend`),
      ]) {
        expect(reply.status, address).toBe(inPath);
      }
    }
    expect(await (await import("node:fs/promises")).readdir(`${server.dataDir}/outbox`).catch(() => [])).toEqual([]);
  });

  it("at the limits, an address is accepted", async () => {
    const ann = await server.registered("ann");
    const pageId = await createPage(ann);
    expect((await share(ann, "page", pageId, addressOf(64, 254), "view")).status).toBe(202);
  });

  it("a session whose email claim is over the limits is not a valid session", async () => {
    const cookie = await mintSession(TEST_SESSION_SECRET, {
      sub: randomUUID(),
      email: `${"x".repeat(65)}@example.com`,
      name: "Long",
    });
    const reply = await new Client(server.url, { cookie }).get("/me");
    expect(reply.status).toBe(401);
  });
});

describe("PUT /pages/{id}/content", () => {
  it("refuses a bare JSON string like any other non-object JSON body", async () => {
    const ann = await server.registered("ann");
    const pageId = await createPage(ann, { markdown: "kept" });
    const reply = await ann.call("PUT", `/pages/${pageId}/content`, { json: "replaced", headers: { "if-match": "*" } });
    expect(reply.status).toBe(400);
    expect(reply.body.error?.code).toBe("validation_failed");
    expect((await ann.get(`/pages/${pageId}/content`)).text.endsWith("\nkept")).toBe(true);
  });
});

describe("moving an item to where it already is", () => {
  const historyLength = async (client: Client, path: string): Promise<number> =>
    ((await client.get(`${path}/history?limit=100`)).body.data as unknown[]).length;

  async function annsTree(): Promise<{ ann: TestUser; bob: TestUser; folderId: string; pageId: string }> {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const folderId = await createFolder(ann);
    const pageId = await createPage(ann, { parentId: folderId });
    return { ann, bob, folderId, pageId };
  }

  it("an editor of a root folder moving it to the root gets 200 and no history entry", async () => {
    const { ann, bob, folderId } = await annsTree();
    expect((await share(ann, "folder", folderId, bob.email, "edit")).status).toBe(200);
    const before = await historyLength(ann, `/folders/${folderId}`);
    const reply = await bob.post(`/folders/${folderId}/move`, { parentId: null });
    expect(reply.status).toBe(200);
    expect(reply.body.parentId).toBeNull();
    expect(await historyLength(ann, `/folders/${folderId}`)).toBe(before);
  });

  it("anyone who can see a page or folder gets 200 and no event for a move to its current place", async () => {
    const { ann, bob, folderId, pageId } = await annsTree();
    expect((await share(ann, "folder", folderId, bob.email, "view")).status).toBe(200);
    const folderBefore = await historyLength(ann, `/folders/${folderId}`);
    const pageBefore = await historyLength(ann, `/pages/${pageId}`);
    expect((await bob.post(`/folders/${folderId}/move`, { parentId: null })).status).toBe(200);
    const pageMove = await bob.post(`/pages/${pageId}/move`, { parentId: folderId });
    expect(pageMove.status).toBe(200);
    expect(pageMove.body.parentId).toBe(folderId);
    expect(await historyLength(ann, `/folders/${folderId}`)).toBe(folderBefore);
    expect(await historyLength(ann, `/pages/${pageId}`)).toBe(pageBefore);
    // Moving elsewhere still needs edit.
    const other = await createFolder(ann);
    expect((await share(ann, "folder", other, bob.email, "edit")).status).toBe(200);
    expect((await bob.post(`/pages/${pageId}/move`, { parentId: other })).status).toBe(403);
  });

  it("a page whose folder the caller cannot see is at their root: moving it there changes nothing", async () => {
    const { ann, bob, pageId } = await annsTree();
    expect((await share(ann, "page", pageId, bob.email, "edit")).status).toBe(200);
    const before = await historyLength(ann, `/pages/${pageId}`);
    const reply = await bob.post(`/pages/${pageId}/move`, { parentId: null });
    expect(reply.status).toBe(200);
    expect(reply.body.parentId).toBeNull();
    expect(await historyLength(ann, `/pages/${pageId}`)).toBe(before);
  });
});

describe("a session whose email claim differs from the account's", () => {
  it("is refused with 409 conflict, and the account keeps its address", async () => {
    const id = randomUUID();
    const first = await server.signIn("ann", { id, email: `ann-${id.slice(0, 8)}@example.com` });
    expect((await first.get("/me")).status).toBe(200);
    const changed = await server.signIn("ann", { id, email: `other-${id.slice(0, 8)}@example.com` });
    const reply = await changed.get("/me");
    expect(reply.status).toBe(409);
    expect(reply.body.error?.code).toBe("conflict");
    const me = await first.get("/me");
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(first.email);
  });
});
