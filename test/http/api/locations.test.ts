// The Location header of an answer that creates something: the path of the new resource, relative to the server
// the client called, on 201, on a 202 whose resource will exist, and on an Idempotency-Key replay of either.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeImage, upload } from "../../support/images.ts";
import { TestServer, type Reply, type TestUser } from "../../support/server.ts";

let server: TestServer;
let ann: TestUser;
beforeAll(async () => {
  // A short wait, so a paused projector makes a write answer 202 quickly.
  server = await TestServer.start({ settings: { CONSISTENCY_WAIT_MS: "300", WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" } });
  ann = await server.registered("ann");
});
afterAll(async () => {
  await server.stop();
});

/** The Location of a reply, which must be a path under the API (never an absolute URL naming a host). */
function locationOf(reply: Reply): string {
  const location = reply.headers.get("location") ?? "";
  expect(location).toMatch(/^\/api\/v1\//);
  return location;
}

describe("Location on a creating answer", () => {
  it("names the new page, folder, duplicate and image, each readable there", async () => {
    const folder = await ann.post("/folders", { name: "Located" });
    expect(folder.status).toBe(201);
    expect(locationOf(folder)).toBe(`/api/v1/folders/${String(folder.body.id)}`);
    expect((await ann.get(locationOf(folder))).body.id).toBe(folder.body.id);

    const page = await ann.post("/pages", { title: "Located page", markdown: "text", parentId: folder.body.id });
    expect(page.status).toBe(201);
    expect(locationOf(page)).toBe(`/api/v1/pages/${String(page.body.id)}`);
    expect((await ann.get(locationOf(page))).body.title).toBe("Located page");

    const copy = await ann.post(`/pages/${String(page.body.id)}/duplicate`, { title: "Located copy" });
    expect(copy.status).toBe(201);
    expect(locationOf(copy)).toBe(`/api/v1/pages/${String(copy.body.id)}`);
    expect((await ann.get(locationOf(copy))).body.title).toBe("Located copy");

    const image = await upload(ann, String(page.body.id), {
      file: { bytes: await makeImage("png"), name: "dot.png", type: "image/png" },
      alt: "a dot",
    });
    expect(image.status).toBe(201);
    expect(locationOf(image)).toBe(`/api/v1/images/${String(image.body.id)}`);
    const bytes = await ann.get(locationOf(image));
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get("content-type")).toBe("image/png");
  });

  it("names the new comment of a thread or a reply: the address that edits it", async () => {
    const page = await ann.post("/pages", { title: "Discussed", markdown: "some text" });
    const opened = await ann.post(`/pages/${String(page.body.id)}/comments`, {
      body: "first",
      anchor: { quote: "some" },
    });
    expect(opened.status).toBe(201);
    const thread = opened.body.thread as { id: string; comments: Array<{ id: string }> };
    expect(locationOf(opened)).toBe(`/api/v1/pages/${String(page.body.id)}/comments/${thread.comments[0]?.id}`);
    const replied = await ann.post(`/pages/${String(page.body.id)}/comments/${thread.id}/replies`, { body: "second" });
    expect(replied.status).toBe(201);
    const comments = (replied.body.thread as { comments: Array<{ id: string; body: string }> }).comments;
    const reply = comments.find((comment) => comment.body === "second");
    expect(locationOf(replied)).toBe(`/api/v1/pages/${String(page.body.id)}/comments/${reply?.id}`);
    const edited = await ann.patch(locationOf(replied), { body: "second, edited" });
    expect(edited.status).toBe(200);
  });

  it("names the new token, webhook and invitation, each managed there", async () => {
    const token = await ann.post("/tokens", { name: "located", scopes: ["pages:read"] });
    expect(token.status).toBe(201);
    expect(locationOf(token)).toBe(`/api/v1/tokens/${String(token.body.id)}`);
    expect((await ann.delete(locationOf(token))).status).toBe(204);

    const webhook = await ann.post("/webhooks", { url: "https://hooks.example.com/located", events: ["page.created"] });
    expect(webhook.status).toBe(201);
    expect(locationOf(webhook)).toBe(`/api/v1/webhooks/${String(webhook.body.id)}`);
    expect((await ann.get(locationOf(webhook))).body.id).toBe(webhook.body.id);

    // An address without an account: the member is an invitation for now (202), and the invitation exists.
    const invited = await ann.post("/shares/workspace/members", {
      email: `nobody-${randomUUID().slice(0, 8)}@example.com`,
      role: "viewer",
    });
    expect(invited.status).toBe(202);
    const invitation = invited.body.invitation as { id: string };
    expect(locationOf(invited)).toBe(`/api/v1/shares/invitations/${invitation.id}`);
    expect((await ann.delete(locationOf(invited))).status).toBe(204);
  });

  it("is absent where nothing is created as one resource: an import, a grant to an existing user, an edit", async () => {
    const vault = await ann.post("/imports/obsidian", { files: [{ path: "Note.md", content: "hello" }] });
    expect(vault.status).toBe(201);
    expect(vault.headers.get("location")).toBeNull();
    const page = await ann.post("/pages", { title: "Edited" });
    const renamed = await ann.patch(`/pages/${String(page.body.id)}`, { title: "Edited again" });
    expect(renamed.status).toBe(200);
    expect(renamed.headers.get("location")).toBeNull();
  });

  it("is on a 202 of a creation not yet visible, and on an Idempotency-Key replay, naming the same page", async () => {
    const key = randomUUID();
    await server.internals.projector.stop();
    let first: Reply;
    let again: Reply;
    try {
      first = await ann.call("POST", "/pages", { json: { title: "Slow" }, headers: { "idempotency-key": key } });
      again = await ann.call("POST", "/pages", { json: { title: "Slow" }, headers: { "idempotency-key": key } });
    } finally {
      await server.internals.projector.start();
    }
    expect(first.status).toBe(202);
    expect(locationOf(first)).toBe(`/api/v1/pages/${String(first.body.id)}`);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(locationOf(again)).toBe(locationOf(first));

    const visibleKey = randomUUID();
    const created = await ann.call("POST", "/folders", {
      json: { name: "Once" },
      headers: { "idempotency-key": visibleKey },
    });
    const replayed = await ann.call("POST", "/folders", {
      json: { name: "Once" },
      headers: { "idempotency-key": visibleKey },
    });
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(locationOf(replayed)).toBe(`/api/v1/folders/${String(created.body.id)}`);
  });
});
