import { beforeAll, describe, expect, it } from "vitest";
import type { TestUser } from "../../support/server.ts";
import { serverForFile } from "../../support/server-for-file.ts";
import { createPage, share } from "../../support/workspace-builders.ts";

const file = serverForFile();
let ann: TestUser;
beforeAll(async () => {
  ann = await file.server.registered("ann");
});

const body = (document: string): string => document.replace(/^---\n[\s\S]*?\n---\n/, "");
const add = (user: TestUser, pageId: string, json: unknown, headers: Record<string, string> = {}) =>
  user.call("PATCH", `/pages/${pageId}/content`, { json, headers });

describe("appending and prepending to a page", () => {
  it("appends and prepends without If-Match and answers the new content with its ETag", async () => {
    const pageId = await createPage(ann, { markdown: "middle\n" });
    const appended = await add(ann, pageId, { append: "end\n" });
    expect(appended.status).toBe(200);
    expect(body(appended.text)).toBe("middle\nend\n");
    const prepended = await add(ann, pageId, { prepend: "start\n" });
    expect(body(prepended.text)).toBe("start\nmiddle\nend\n");
    const read = await ann.get(`/pages/${pageId}/content`);
    expect(read.headers.get("etag")).toBe(prepended.headers.get("etag"));
    expect(prepended.headers.get("etag")).not.toBe(appended.headers.get("etag"));
    expect(body(read.text)).toBe("start\nmiddle\nend\n");
  });

  it("honours If-Match when sent: the current ETag applies, a stale one is 412 and changes nothing", async () => {
    const pageId = await createPage(ann, { markdown: "a" });
    const etag = (await ann.get(`/pages/${pageId}/content`)).headers.get("etag") ?? "";
    const applied = await add(ann, pageId, { append: "b" }, { "if-match": etag });
    expect(applied.status).toBe(200);
    const stale = await add(ann, pageId, { append: "c" }, { "if-match": etag });
    expect(stale.status).toBe(412);
    expect(stale.body.error?.code).toBe("precondition_failed");
    expect(body((await ann.get(`/pages/${pageId}/content`)).text)).toBe("ab");
  });

  it("applies 50 concurrent appends each exactly once", async () => {
    const pageId = await createPage(ann, { markdown: "" });
    const lines = Array.from({ length: 50 }, (_, index) => `line ${index}\n`);
    const replies = await Promise.all(lines.map((line) => add(ann, pageId, { append: line })));
    expect(replies.map((reply) => reply.status)).toEqual(lines.map(() => 200));
    const stored = body((await ann.get(`/pages/${pageId}/content`)).text);
    const found = stored.split("\n").filter((line) => line !== "");
    expect(found).toHaveLength(50);
    expect([...found].sort()).toEqual(lines.map((line) => line.trimEnd()).sort());
  });

  it("refuses a result over the markdown limit with 400, as the replacement does", async () => {
    const pageId = await createPage(ann, { markdown: "x".repeat(300_000) });
    const over = await add(ann, pageId, { append: "y".repeat(200_001) });
    expect(over.status).toBe(400);
    expect(over.body.error?.code).toBe("validation_failed");
    const atLimit = await add(ann, pageId, { append: "y".repeat(200_000) });
    expect(atLimit.status).toBe(200);
  });

  it("takes exactly one of append or prepend, as text", async () => {
    const pageId = await createPage(ann);
    for (const json of [{}, { append: "a", prepend: "b" }, { append: 5 }, { append: "a", other: 1 }, "text"]) {
      const reply = await add(ann, pageId, json);
      expect(reply.status, JSON.stringify(json)).toBe(400);
    }
  });

  it("needs edit: a viewer gets 403, a stranger 404 as for a missing page", async () => {
    const viewer = await file.server.registered("viewer");
    const stranger = await file.server.registered("stranger");
    const pageId = await createPage(ann, { markdown: "kept" });
    await share(ann, "page", pageId, viewer.email, "view");
    expect((await add(viewer, pageId, { append: "x" })).status).toBe(403);
    const invisible = await add(stranger, pageId, { append: "x" });
    const missing = await add(stranger, "00000000-0000-4000-8000-000000000000", { append: "x" });
    expect(invisible.status).toBe(404);
    expect(invisible.text).toBe(missing.text);
    expect(body((await ann.get(`/pages/${pageId}/content`)).text)).toBe("kept");
  });
});
