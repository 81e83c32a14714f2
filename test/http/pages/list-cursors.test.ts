// A folder move gives every page below it the same position, so list cursors must order by
// position and then id, or the pages sharing the position at a page boundary are never returned.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type Client } from "../../support/server.ts";
import { createFolder, createPage, share } from "../../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

type Listed = { data: { id: string }[]; nextCursor: string | null };

/** Every id of a list, walked page by page through its cursors. */
async function walk(client: Client, path: string): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 20; pages += 1) {
    const separator = path.includes("?") ? "&" : "?";
    const reply = await client.get(
      `${path}${separator}limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    expect(reply.status).toBe(200);
    const body = reply.body as Listed;
    seen.push(...body.data.map((page) => page.id));
    cursor = body.nextCursor;
    if (cursor === null) return seen;
  }
  throw new Error(`${path}: more than 20 pages of results`);
}

describe("list cursors after a folder move", () => {
  it("walking GET /pages and ?parentId= in pages of 50 returns each of a moved folder's 120 pages exactly once", async () => {
    const ann = await server.registered("ann");
    const reader = await server.registered("reader");
    const destination = await createFolder(ann, { name: "Archive" });
    const folder = await createFolder(ann, { name: "Batch" });
    const pageIds: string[] = [];
    for (let i = 0; i < 120; i += 1) pageIds.push(await createPage(ann, { title: `page ${i}`, parentId: folder }));
    expect((await share(ann, "folder", destination, reader.email, "view")).status).toBe(200);
    const moved = await ann.post(`/folders/${folder}/move`, { parentId: destination });
    expect(moved.status).toBe(200);

    const expected = [...pageIds].sort();
    for (const [who, client] of [
      ["owner", ann],
      ["reader with a folder grant", reader],
    ] as const) {
      for (const path of ["/pages", `/pages?parentId=${folder}`]) {
        const seen = await walk(client, path);
        expect({ who, path, count: seen.length, ids: [...seen].sort() }).toEqual({
          who,
          path,
          count: 120,
          ids: expected,
        });
      }
    }
  });
});
