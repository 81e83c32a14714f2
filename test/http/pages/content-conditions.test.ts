// Conditional reads and hostile frontmatter on page content, as a client sees them: If-None-Match is compared
// weakly (RFC 9110 §13.1.2: `W/` ignored, a list, `*`) wherever an ETag is served, and a text/markdown PUT whose
// leading frontmatter cannot be read is refused naming the problem, not silently dropped.
import { beforeAll, describe, expect, it } from "vitest";
import { makeImage, upload } from "../../support/images.ts";
import type { TestUser } from "../../support/server.ts";
import { serverForFile } from "../../support/server-for-file.ts";
import { aliasBomb } from "../../support/yaml-bomb.ts";

const file = serverForFile();
let ann: TestUser;
let pageId: string;
beforeAll(async () => {
  ann = await file.server.registered("ann");
  pageId = String((await ann.post("/pages", { title: "Conditions", markdown: "first" })).body.id);
});

/** If-None-Match values that match `etag` by weak comparison, and some that do not. */
const matching = (etag: string) => [etag, `W/${etag}`, `"other", W/${etag}`, `W/"other",${etag}`, "*", ` * `];
const notMatching = ['"other"', 'W/"other"', '"a", W/"b"'];

describe("If-None-Match", () => {
  it("answers 304 to a weak validator, a list holding the ETag, and *, on page content", async () => {
    const first = await ann.get(`/pages/${pageId}/content`);
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"/);
    for (const value of matching(etag)) {
      const reply = await ann.get(`/pages/${pageId}/content`, { "if-none-match": value });
      expect(reply.status, value).toBe(304);
      expect(reply.headers.get("etag")).toBe(etag);
      expect(reply.text).toBe("");
    }
    for (const value of notMatching)
      expect((await ann.get(`/pages/${pageId}/content`, { "if-none-match": value })).status, value).toBe(200);
  });

  it("answers 304 on content as of an instant, which has an ETag of its own", async () => {
    const at = new Date().toISOString();
    const first = await ann.get(`/pages/${pageId}/content?at=${at}`);
    expect(first.status, first.text).toBe(200);
    const etag = first.headers.get("etag") ?? "";
    for (const value of matching(etag))
      expect((await ann.get(`/pages/${pageId}/content?at=${at}`, { "if-none-match": value })).status, value).toBe(304);
  });

  it("answers 304 the same way on an image", async () => {
    const image = await upload(ann, pageId, { file: { bytes: await makeImage("png"), name: "a.png" }, alt: "a" });
    expect(image.status).toBe(201);
    const first = await ann.get(`/images/${String(image.body.id)}`);
    const etag = first.headers.get("etag") ?? "";
    for (const value of matching(etag))
      expect((await ann.get(`/images/${String(image.body.id)}`, { "if-none-match": value })).status, value).toBe(304);
    for (const value of notMatching)
      expect((await ann.get(`/images/${String(image.body.id)}`, { "if-none-match": value })).status, value).toBe(200);
  });
});

describe("PUT /pages/{id}/content as text/markdown", () => {
  const put = (document: string) =>
    ann.call("PUT", `/pages/${pageId}/content`, {
      body: document,
      headers: { "content-type": "text/markdown", "if-match": "*" },
    });
  const deep = `${"a: ".repeat(1)}${"[".repeat(5_000)}${"]".repeat(5_000)}\n`;
  const nested = `k: ${"{a: ".repeat(5_000)}1${"}".repeat(5_000)}\n`;

  it("refuses an alias bomb or a 5,000-deep frontmatter with 400 naming the problem, and keeps the page as it was", async () => {
    const before = (await ann.get(`/pages/${pageId}/content`)).text;
    for (const yaml of [aliasBomb(), deep, nested]) {
      const reply = await put(`---\n${yaml}\n---\nbody after a hostile block`);
      expect(reply.status, reply.text.slice(0, 200)).toBe(400);
      expect(reply.body.error?.code).toBe("validation_failed");
      expect(reply.body.error?.message).toMatch(/frontmatter/);
    }
    expect((await ann.get(`/pages/${pageId}/content`)).text).toBe(before);
  });

  it("stores the same document as written when it is sent as JSON", async () => {
    const markdown = `---\n${aliasBomb()}---\nkept as text`;
    const reply = await ann.call("PUT", `/pages/${pageId}/content`, {
      json: { markdown },
      headers: { "if-match": "*" },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.text).toContain("kept as text");
    expect(reply.text).toContain("*d, *d");
  });

  it("still takes back the document GET answers, keeping the page's own keys", async () => {
    await ann.call("PUT", `/pages/${pageId}/content`, {
      json: { markdown: "---\ntags: [a]\n---\nown keys" },
      headers: { "if-match": "*" },
    });
    const document = (await ann.get(`/pages/${pageId}/content`)).text;
    const reply = await put(document.replace("own keys", "own keys, edited"));
    expect(reply.status, reply.text).toBe(200);
    expect(reply.text).toMatch(/^tags: \[ a \]$/m);
    expect(reply.text).toContain("own keys, edited");
  });
});
