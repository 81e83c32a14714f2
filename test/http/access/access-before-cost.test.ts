// Access is decided before anything that grows with the entity is read, on every route family that takes an
// id: an outsider naming a large page or folder they cannot see costs what naming a random id costs.
//
// How this is measured without timing: the server's real stores are metered (test/support/read-meter.ts), every
// query-view call and event-stream read adding its result's size in bytes of JSON. The entity is made large
// (hundreds of KB of markdown, revisions, threads, links, invitations); then, per route, the bytes read for the
// invisible entity and for a random id are compared. They may differ by the entity's fixed-size listing row
// (which access is decided on), never by anything near the entity's size: the bound below is a hundredth of it.
// Counting bytes is exact and independent of the machine's load, where comparing latencies is not.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anchor, openThread } from "../../support/threads.ts";
import { makeImage, upload } from "../../support/images.ts";
import { meterReads, type ReadMeter } from "../../support/read-meter.ts";
import { TestServer, type Client, type Reply, type TestUser } from "../../support/server.ts";
import { createFolder, createPage, share, unknownAddress } from "../../support/workspace-builders.ts";

/** What reading the entity's own data costs: far above the listing rows access is decided on. */
const BIG = 300_000;
/** Bytes the invisible entity may cost beyond a random id: its listing rows, not its content or history. */
const SLACK = 4_096;

let server: TestServer;
let meter: ReadMeter;
let ann: TestUser;
let stranger: TestUser;
let ids: Ids;

interface Ids {
  readonly pageId: string;
  readonly folderId: string;
  readonly deletedPageId: string;
  readonly imageId: string;
  readonly threadId: string;
  readonly commentId: string;
}

const text = (label: string) => `${label} `.repeat(Math.ceil(BIG / (label.length + 1)));

beforeAll(async () => {
  server = await TestServer.start();
  ann = await server.registered("ann");
  stranger = await server.registered("stranger");
  const folderId = await createFolder(ann);
  const pageId = await createPage(ann, { parentId: folderId, markdown: text("first") });
  // A long history of large versions.
  for (let version = 0; version < 4; version++) {
    const replaced = await ann.call("PUT", `/pages/${pageId}/content`, {
      json: { markdown: text(`version${version}`) },
      headers: { "if-match": "*" },
    });
    expect(replaced.status, replaced.text).toBe(200);
  }
  // Threads, links from other pages, invitations and an image on it.
  let thread = await openThread(ann, pageId, "first comment", { quote: "version3" });
  for (let index = 0; index < 20; index++)
    thread = await openThread(ann, pageId, `comment ${index} ${"x".repeat(2_000)}`, { quote: "version3" });
  for (let index = 0; index < 30; index++)
    await createPage(ann, { parentId: folderId, markdown: `see /api/v1/pages/${pageId} ${"y".repeat(2_000)}` });
  for (let index = 0; index < 15; index++)
    expect((await share(ann, "page", pageId, unknownAddress(), "view")).status).toBe(202);
  for (let index = 0; index < 15; index++)
    expect((await share(ann, "folder", folderId, unknownAddress(), "view")).status).toBe(202);
  const image = await upload(ann, pageId, {
    file: { bytes: await makeImage("png", 800, 800), name: "a.png" },
    alt: "a",
  });
  expect(image.status).toBe(201);
  // A deleted page whose creation alone is large.
  const deletedPageId = await createPage(ann, { parentId: folderId, markdown: text("deleted") });
  expect((await ann.delete(`/pages/${deletedPageId}`)).status).toBe(204);
  ids = {
    pageId,
    folderId,
    deletedPageId,
    imageId: String(image.body.id),
    threadId: thread.id,
    commentId: thread.comments[0]?.id ?? "",
  };
  meter = meterReads(server.internals.readStore, server.internals.eventStore);
  // The owner reads it all: the metered stores do see the entity's size.
  meter.reset();
  await ann.get(`/pages/${pageId}/content`);
  await ann.get(`/pages/${pageId}/history?limit=100`);
  expect(meter.bytes).toBeGreaterThan(BIG);
}, 120_000);

afterAll(async () => {
  await server.stop();
});

const randomIds = (): Ids => ({
  pageId: randomUUID(),
  folderId: randomUUID(),
  deletedPageId: randomUUID(),
  imageId: randomUUID(),
  threadId: randomUUID(),
  commentId: randomUUID(),
});

const instant = () => new Date().toISOString();
const json = (client: Client, method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  client.call(method, path, { json: body, headers });

/** One request per route that takes an id, by family. */
const families: Record<string, Record<string, (client: Client, ids: Ids) => Promise<Reply>>> = {
  pages: {
    "GET page": (c, i) => c.get(`/pages/${i.pageId}`),
    "PATCH page": (c, i) => c.patch(`/pages/${i.pageId}`, { title: "mine now" }),
    "POST move": (c, i) => c.post(`/pages/${i.pageId}/move`, { parentId: null }),
    "DELETE page": (c, i) => c.delete(`/pages/${i.pageId}`),
  },
  content: {
    "GET content": (c, i) => c.get(`/pages/${i.pageId}/content`),
    "GET content if-none-match": (c, i) => c.get(`/pages/${i.pageId}/content`, { "if-none-match": "*" }),
    "PUT content": (c, i) =>
      c.call("PUT", `/pages/${i.pageId}/content`, {
        body: "mine",
        headers: { "content-type": "text/markdown", "if-match": "*" },
      }),
    "PATCH content": (c, i) => json(c, "PATCH", `/pages/${i.pageId}/content`, { append: "mine" }, { "if-match": "*" }),
  },
  history: {
    "GET page history": (c, i) => c.get(`/pages/${i.pageId}/history?limit=100`),
    "GET deleted page history": (c, i) => c.get(`/pages/${i.deletedPageId}/history?limit=100`),
    "GET folder history": (c, i) => c.get(`/folders/${i.folderId}/history?limit=100`),
  },
  "as of an instant": {
    "GET page ?at=": (c, i) => c.get(`/pages/${i.pageId}?at=${instant()}`),
    "GET content ?at=": (c, i) => c.get(`/pages/${i.pageId}/content?at=${instant()}`),
    "GET deleted content ?at=": (c, i) => c.get(`/pages/${i.deletedPageId}/content?at=${instant()}`),
  },
  backlinks: {
    "GET backlinks": (c, i) => c.get(`/pages/${i.pageId}/backlinks?limit=100`),
  },
  comments: {
    "GET comments": (c, i) => c.get(`/pages/${i.pageId}/comments?limit=100`),
    "POST comment": (c, i) => c.post(`/pages/${i.pageId}/comments`, { body: "hi", anchor }),
    "POST reply": (c, i) => c.post(`/pages/${i.pageId}/comments/${i.threadId}/replies`, { body: "hi" }),
    "PATCH status": (c, i) => c.patch(`/pages/${i.pageId}/comments/${i.threadId}/status`, { status: "resolved" }),
    "PATCH comment": (c, i) => c.patch(`/pages/${i.pageId}/comments/${i.commentId}`, { body: "edited" }),
  },
  images: {
    "GET image": (c, i) => c.get(`/images/${i.imageId}`),
  },
  shares: {
    "GET page shares": (c, i) => c.get(`/shares/entity/page/${i.pageId}`),
    "GET folder shares": (c, i) => c.get(`/shares/entity/folder/${i.folderId}`),
    "POST grant": (c, i) =>
      c.post(`/shares/entity/page/${i.pageId}/grants`, { email: unknownAddress(), permission: "view" }),
  },
  duplicate: {
    "POST duplicate": (c, i) => c.post(`/pages/${i.pageId}/duplicate`, {}),
  },
  restore: {
    "POST restore": (c, i) => json(c, "POST", `/pages/${i.pageId}/restore`, { at: instant() }, { "if-match": "*" }),
  },
  trash: {
    "POST trash restore page": (c, i) => c.post(`/trash/page/${i.deletedPageId}/restore`),
  },
};

/** Bytes the request reads from the stores, and its answer. */
async function cost(request: () => Promise<Reply>): Promise<{ bytes: number; reads: string; reply: Reply }> {
  meter.reset();
  const reply = await request();
  return { bytes: meter.bytes, reads: JSON.stringify([...meter.reads]), reply };
}

describe("an invisible large entity costs what a random id costs", () => {
  for (const [family, routes] of Object.entries(families)) {
    it(family, async () => {
      for (const [route, call] of Object.entries(routes)) {
        // A first call warms what is per caller (the stranger's access context), not per entity.
        await call(stranger, randomIds());
        const random = await cost(() => call(stranger, randomIds()));
        const invisible = await cost(() => call(stranger, ids));
        expect(invisible.reply.status, `${route}: ${invisible.reply.text}`).toBe(random.reply.status);
        expect(invisible.bytes - random.bytes, `${route} read ${invisible.reads} against ${random.reads}`).toBeLessThan(
          SLACK,
        );
      }
    });
  }
});
