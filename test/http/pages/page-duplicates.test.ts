import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type TestUser } from "../../support/server.ts";
import { createFolder, createPage, share } from "../../support/workspace-builders.ts";
import { makeImage, uploadForm } from "../../support/images.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

const body = (document: string): string => document.replace(/^---\n[\s\S]*?\n---\n/, "");
type Item = { type: string; changes: Record<string, unknown> };

async function uploadImage(user: TestUser, pageId: string): Promise<{ id: string; url: string; markdown: string }> {
  const reply = await user.call("POST", `/pages/${pageId}/images`, {
    body: uploadForm({ file: { bytes: await makeImage("png"), name: "chart.png" }, alt: "chart" }),
  });
  if (reply.status !== 201) throw new Error(`upload: ${reply.text}`);
  return reply.body as { id: string; url: string; markdown: string };
}

describe("duplicating a page", () => {
  it("copies title, icon and markdown into a new page whose history starts with the copy, naming the source, without comments", async () => {
    const ann = await server.registered("ann");
    const source = await ann.post("/pages", {
      title: "Plan",
      markdown: "# Goals\n\nShip it.",
      icon: "🚀",
      parentId: null,
    });
    const sourceId = String(source.body.id);
    await ann.patch(`/pages/${sourceId}`, { title: "Plan v2" });
    await ann.post(`/pages/${sourceId}/comments`, { body: "first", anchor: { quote: "Ship it." } });

    const copy = await ann.post(`/pages/${sourceId}/duplicate`, {});
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({
      title: "Plan v2 (copy)",
      icon: "🚀",
      parentId: null,
      ownerId: ann.id,
      permission: "owner",
    });
    const copyId = String(copy.body.id);
    expect(copyId).not.toBe(sourceId);
    expect(body((await ann.get(`/pages/${copyId}/content`)).text)).toBe("# Goals\n\nShip it.");
    expect((await ann.get(`/pages/${copyId}/comments?status=all`)).body.data).toEqual([]);
    const history = (await ann.get(`/pages/${copyId}/history?order=asc`)).body.data as Item[];
    expect(history).toHaveLength(1);
    expect(history[0]?.changes).toMatchObject({ kind: "created", title: "Plan v2 (copy)", duplicatedFrom: sourceId });
  });

  it("takes a title and a destination folder; without a destination it lands beside the source", async () => {
    const ann = await server.registered("ann");
    const here = await createFolder(ann, { name: "Here" });
    const there = await createFolder(ann, { name: "There" });
    const sourceId = await createPage(ann, { title: "Notes", parentId: here });
    const beside = await ann.post(`/pages/${sourceId}/duplicate`, {});
    expect(beside.body).toMatchObject({ parentId: here });
    const moved = await ann.post(`/pages/${sourceId}/duplicate`, { title: "Elsewhere", parentId: there });
    expect(moved.status).toBe(201);
    expect(moved.body).toMatchObject({ title: "Elsewhere", parentId: there });
    const atRoot = await ann.post(`/pages/${sourceId}/duplicate`, { parentId: null });
    expect(atRoot.body).toMatchObject({ parentId: null });
    expect((await ann.post(`/pages/${sourceId}/duplicate`, { title: "" })).status).toBe(400);
    expect((await ann.post(`/pages/${sourceId}/duplicate`, { other: 1 })).status).toBe(400);
  });

  it("copies the images so that someone who can read only the copy sees them", async () => {
    const ann = await server.registered("ann");
    const bea = await server.registered("bea");
    const sourceId = await createPage(ann, { markdown: "" });
    const image = await uploadImage(ann, sourceId);
    const put = await ann.call("PUT", `/pages/${sourceId}/content`, {
      json: { markdown: `Before\n\n${image.markdown}\n` },
      headers: { "if-match": "*" },
    });
    expect(put.status).toBe(200);

    const copy = await ann.post(`/pages/${sourceId}/duplicate`, {});
    const copyId = String(copy.body.id);
    await share(ann, "page", copyId, bea.email, "view");
    const copied = body((await bea.get(`/pages/${copyId}/content`)).text);
    const url = /\((\/api\/v1\/images\/[0-9a-f-]{36})\)/.exec(copied)?.[1];
    expect(url).toBeDefined();
    expect(url).not.toBe(image.url);
    expect(copied).toBe(`Before\n\n${image.markdown.replace(image.url, url ?? "")}\n`);
    const seen = await bea.call("GET", url ?? "");
    expect(seen.status).toBe(200);
    expect(seen.headers.get("content-type")).toBe("image/png");
    expect((await bea.call("GET", image.url)).status).toBe(404);
    expect((await ann.call("GET", image.url)).status).toBe(200);
  });

  it("a source the caller cannot see is 404 as a missing page; viewing it is enough to copy it into one's own workspace", async () => {
    const ann = await server.registered("ann");
    const bea = await server.registered("bea");
    const stranger = await server.registered("stranger");
    const folderId = await createFolder(ann);
    const sourceId = await createPage(ann, { markdown: "shared words", parentId: folderId });
    await share(ann, "folder", folderId, bea.email, "view");
    const invisible = await stranger.post(`/pages/${sourceId}/duplicate`, {});
    const missing = await stranger.post("/pages/00000000-0000-4000-8000-000000000000/duplicate", {});
    expect(invisible.status).toBe(404);
    expect(invisible.text).toBe(missing.text);
    // Beside the source is a folder bea may only view.
    expect((await bea.post(`/pages/${sourceId}/duplicate`, {})).status).toBe(403);
    const own = await bea.post(`/pages/${sourceId}/duplicate`, { parentId: null });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ ownerId: bea.id, permission: "owner", parentId: null });
    expect(body((await bea.get(`/pages/${String(own.body.id)}/content`)).text)).toBe("shared words");
  });

  it("replays with the same Idempotency-Key and refuses the key with another body", async () => {
    const ann = await server.registered("ann");
    const sourceId = await createPage(ann);
    const first = await ann.call("POST", `/pages/${sourceId}/duplicate`, {
      json: { title: "Once" },
      headers: { "idempotency-key": "dup-1" },
    });
    const again = await ann.call("POST", `/pages/${sourceId}/duplicate`, {
      json: { title: "Once" },
      headers: { "idempotency-key": "dup-1" },
    });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const other = await ann.call("POST", `/pages/${sourceId}/duplicate`, {
      json: { title: "Twice" },
      headers: { "idempotency-key": "dup-1" },
    });
    expect(other.status).toBe(422);
  });
});
