import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type TestUser } from "../../support/server.ts";
import { createFolder, createPage, historyPositions, replaceContent, share } from "../../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

/** A page created, renamed and edited: its history positions in order. */
async function editedPage(
  owner: TestUser,
  options: { parentId?: string } = {},
): Promise<{ pageId: string; at: string[] }> {
  const pageId = await createPage(owner, { title: "Draft", markdown: "one\ntwo\nthree\n", ...options });
  expect((await owner.patch(`/pages/${pageId}`, { title: "Plan", icon: "📝" })).status).toBe(200);
  await replaceContent(owner, pageId, "one\n2\nthree\nfour\n");
  return { pageId, at: await historyPositions(owner, pageId) };
}

describe("GET /pages/{pageId}/diff", () => {
  it("answers a unified diff between two instants, headed by the title and icon changes", async () => {
    const owner = await server.registered("owner");
    const { pageId, at } = await editedPage(owner);
    const reply = await owner.get(`/pages/${pageId}/diff?from=${at[0]}&to=${at.at(-1)}`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toMatch(/^text\/x-diff/);
    expect(reply.text).toContain('# title: "Draft" -> "Plan"');
    expect(reply.text).toContain('# icon: null -> "📝"');
    expect(reply.text).toContain("--- page.md\tposition");
    expect(reply.text).toContain("@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four\n");
  });

  it("answers JSON hunks on Accept: application/json, with `to` defaulting to now", async () => {
    const owner = await server.registered("owner");
    const { pageId, at } = await editedPage(owner);
    const reply = await owner.get(`/pages/${pageId}/diff?from=${at[0]}`, { accept: "application/json" });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      pageId,
      fromPosition: at[0],
      toPosition: at.at(-1),
      title: { from: "Draft", to: "Plan" },
      icon: { from: null, to: "📝" },
      linesAdded: 2,
      linesRemoved: 1,
      hunks: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 4, lines: [" one", "-two", "+2", " three", "+four"] }],
    });
  });

  it("takes times as ?at= does, and refuses one in the future", async () => {
    const owner = await server.registered("owner");
    const { pageId } = await editedPage(owner);
    const now = new Date().toISOString();
    const same = await owner.get(`/pages/${pageId}/diff?from=${encodeURIComponent(now)}`, {
      accept: "application/json",
    });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ hunks: [], title: null, icon: null });
    const future = await owner.get(
      `/pages/${pageId}/diff?from=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`,
    );
    expect(future.status).toBe(400);
    expect(future.body.error?.code).toBe("validation_failed");
  });

  it("refuses versions too different to compare with a clear error", async () => {
    const owner = await server.registered("owner");
    const lines = (prefix: string) => Array.from({ length: 25_000 }, (_, index) => `${prefix} ${index}`).join("\n");
    const pageId = await createPage(owner, { title: "Big", markdown: lines("a") });
    await replaceContent(owner, pageId, lines("b"));
    const [created] = await historyPositions(owner, pageId);
    const reply = await owner.get(`/pages/${pageId}/diff?from=${created}`);
    expect(reply.status).toBe(422);
    expect(reply.body.error?.code).toBe("diff_too_large");
    expect(reply.body.error?.message).toMatch(/differ too much/);
  });

  it("is 404 for another user's page, the same as for an unknown id", async () => {
    const owner = await server.registered("owner");
    const outsider = await server.registered("outsider");
    const { pageId, at } = await editedPage(owner);
    const theirs = await outsider.get(`/pages/${pageId}/diff?from=${at[0]}`);
    const unknown = await outsider.get(`/pages/${crypto.randomUUID()}/diff?from=${at[0]}`);
    expect(theirs.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(theirs.body).toEqual(unknown.body);
  });

  it("never names a folder the reader cannot view (the diff is of title, icon and markdown only)", async () => {
    const owner = await server.registered("owner");
    const reader = await server.registered("reader");
    const folderId = await createFolder(owner, { name: "Secret plans" });
    const { pageId, at } = await editedPage(owner, { parentId: folderId });
    expect((await share(owner, "page", pageId, reader.email, "view")).status).toBeLessThan(300);
    const reply = await reader.get(`/pages/${pageId}/diff?from=${at[0]}`);
    expect(reply.status).toBe(200);
    expect(reply.text).not.toContain("Secret plans");
  });
});
