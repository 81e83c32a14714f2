import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Client, TestUser } from "../../support/server.ts";
import { serverForFile } from "../../support/server-for-file.ts";
import { createFolder, createPage, share } from "../../support/workspace-builders.ts";

const file = serverForFile();

const registered = (label: string): Promise<TestUser> => file.server.registered(label);
/** A word no other test uses, so each test sees only its own pages (letters only: one token). */
const word = (): string =>
  `w${randomUUID()
    .replace(/[^a-f]/g, "")
    .slice(0, 10)}x`;
type Hit = {
  id: string;
  title: string;
  folderPath: string;
  snippet: string;
  permission: string;
  parentId: string | null;
};

async function search(
  client: Client,
  q: string,
  extra = "",
): Promise<{ status: number; hits: Hit[]; nextCursor: string | null; code?: string }> {
  const reply = await client.get(`/search?q=${encodeURIComponent(q)}${extra}`);
  return {
    status: reply.status,
    hits: (reply.body.data ?? []) as Hit[],
    nextCursor: (reply.body.nextCursor ?? null) as string | null,
    ...(reply.body.error ? { code: reply.body.error.code } : {}),
  };
}
const ids = (hits: Hit[]): string[] => hits.map((hit) => hit.id);

describe("full-text search", () => {
  it("answers the page record with folderPath and a snippet with the matched words marked", async () => {
    const ann = await registered("ann");
    const w = word();
    const folderId = await createFolder(ann, { name: "Notes" });
    const pageId = await createPage(ann, {
      title: "Weekly",
      parentId: folderId,
      markdown: `Some text before. The ${w} appears here <b>bold</b> & more.`,
    });
    const { status, hits, nextCursor } = await search(ann, w);
    expect(status).toBe(200);
    expect(nextCursor).toBeNull();
    expect(hits).toEqual([
      {
        id: pageId,
        parentId: folderId,
        title: "Weekly",
        icon: null,
        cover: null,
        properties: {},
        ownerId: ann.id,
        permission: "owner",
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        folderPath: "Notes",
        snippet: expect.stringContaining(`<mark>${w}</mark>`),
      },
    ]);
    expect(hits[0]?.snippet).toContain("&lt;b&gt;bold&lt;/b&gt; &amp; more");
  });

  it("ranks pages whose title matches before pages that only mention the words", async () => {
    const ann = await registered("ann");
    const w = word();
    const inBody = await createPage(ann, { title: "Body only", markdown: `${w} ${w} ${w} ${w} ${w}` });
    const inTitle = await createPage(ann, { title: `About ${w}`, markdown: "nothing else" });
    const { hits } = await search(ann, w);
    expect(ids(hits)).toEqual([inTitle, inBody]);
    expect(hits[0]?.snippet).toContain(`<mark>${w}</mark>`);
  });

  it("needs every word; a quoted phrase needs the words together and in order", async () => {
    const ann = await registered("ann");
    const a = word();
    const b = word();
    const together = await createPage(ann, { markdown: `the ${a} ${b} stands here` });
    const apart = await createPage(ann, { markdown: `the ${b} and the ${a} stand apart` });
    await createPage(ann, { markdown: `only ${a}` });
    expect(ids((await search(ann, `${a} ${b}`)).hits).sort()).toEqual([together, apart].sort());
    const phrase = await search(ann, `"${a} ${b}"`);
    expect(ids(phrase.hits)).toEqual([together]);
    expect(phrase.hits[0]?.snippet).toContain(`<mark>${a} ${b}</mark>`);
  });

  it("matches a prefix with a trailing *", async () => {
    const ann = await registered("ann");
    const w = word();
    const longer = await createPage(ann, { markdown: `${w}ning ahead` });
    const exact = await createPage(ann, { markdown: `${w} now` });
    expect(ids((await search(ann, w)).hits)).toEqual([exact]);
    expect(ids((await search(ann, `${w}*`)).hits).sort()).toEqual([longer, exact].sort());
  });

  it("folds case and diacritics in the pages and in the query", async () => {
    const ann = await registered("ann");
    const w = word();
    const pageId = await createPage(ann, { title: `Crème brûlée ${w}`, markdown: `Le Café de ${w}: RÉSUMÉ naïve` });
    for (const q of ["creme brulee", "CAFÉ", "cafe", "resume", "Naive", "résumé", "Cre\u0301me"]) {
      expect(ids((await search(ann, `${q} ${w}`)).hits), q).toEqual([pageId]);
    }
  });

  it("pages through the ranked hits with a cursor, each hit once", async () => {
    const ann = await registered("ann");
    const w = word();
    const created: string[] = [];
    for (let i = 0; i < 7; i += 1)
      created.push(
        await createPage(ann, { title: i < 2 ? `${w} in title ${i}` : `plain ${i}`, markdown: `${w} body ${i}` }),
      );
    const seen: string[] = [];
    let cursor: string | null = null;
    let rounds = 0;
    do {
      const reply = await search(ann, w, `&limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(reply.status).toBe(200);
      seen.push(...ids(reply.hits));
      cursor = reply.nextCursor;
      rounds += 1;
    } while (cursor !== null);
    expect(rounds).toBe(3);
    expect([...seen].sort()).toEqual([...created].sort());
    expect(new Set(seen.slice(0, 2))).toEqual(new Set(created.slice(0, 2)));
    const first = await search(ann, w, "&limit=3");
    const foreign = await search(ann, `${w} other`, `&cursor=${first.nextCursor ?? ""}`);
    expect(foreign.status).toBe(400);
    expect((await search(ann, w, "&cursor=garbage")).code).toBe("validation_failed");
  });

  it("validates q: required, with at least one word", async () => {
    const ann = await registered("ann");
    expect((await ann.get("/search")).status).toBe(400);
    for (const q of ["", "   ", "*", '""', "!!! ---"]) expect((await search(ann, q)).status, q).toBe(400);
    expect((await search(ann, "x".repeat(501))).status).toBe(400);
  });

  it("follows renames, content changes and deletion at once", async () => {
    const ann = await registered("ann");
    const before = word();
    const after = word();
    const pageId = await createPage(ann, { title: `Old ${before}`, markdown: "draft" });
    expect(ids((await search(ann, before)).hits)).toEqual([pageId]);
    await ann.patch(`/pages/${pageId}`, { title: `New ${after}` });
    expect((await search(ann, before)).hits).toEqual([]);
    expect(ids((await search(ann, after)).hits)).toEqual([pageId]);
    const content = await ann.get(`/pages/${pageId}/content`);
    await ann.call("PUT", `/pages/${pageId}/content`, {
      json: { markdown: `now says ${before}` },
      headers: { "if-match": content.headers.get("etag") ?? "" },
    });
    expect(ids((await search(ann, before)).hits)).toEqual([pageId]);
    await ann.delete(`/pages/${pageId}`);
    expect((await search(ann, before)).hits).toEqual([]);
    expect((await search(ann, after)).hits).toEqual([]);
  });

  it("a token needs pages:read", async () => {
    const ann = await registered("ann");
    const w = word();
    const pageId = await createPage(ann, { markdown: w });
    expect(ids((await search(await file.server.tokenClient(ann, ["pages:read"]), w)).hits)).toEqual([pageId]);
    expect((await search(await file.server.tokenClient(ann, ["pages:write"]), w)).code).toBe("insufficient_scope");
  });
});

describe("search and access", () => {
  it("never shows, counts or quotes a page the caller cannot see", async () => {
    const owner = await registered("owner");
    const other = await registered("other");
    const w = word();
    await createPage(owner, { title: `Secret ${w}`, markdown: `${w} the secret plan` });
    const mine = await createPage(other, { markdown: `my own ${w}` });
    const { hits, nextCursor } = await search(other, w);
    expect(ids(hits)).toEqual([mine]);
    expect(nextCursor).toBeNull();
    expect(JSON.stringify(hits)).not.toContain("secret");
    const miss = await search(other, `"the secret plan"`);
    const nothing = await search(other, `"${word()} ${word()}"`);
    expect(miss).toEqual(nothing);
  });

  it("a page shared and then revoked appears and stops appearing at once", async () => {
    const owner = await registered("owner");
    const reader = await registered("reader");
    const w = word();
    const pageId = await createPage(owner, { title: `Shared ${w}` });
    expect((await search(reader, w)).hits).toEqual([]);
    expect((await share(owner, "page", pageId, reader.email, "view")).status).toBe(200);
    expect((await search(reader, w)).hits).toEqual([expect.objectContaining({ id: pageId, permission: "view" })]);
    expect((await owner.delete(`/shares/entity/page/${pageId}/grants/${reader.id}`)).status).toBe(204);
    expect((await search(reader, w)).hits).toEqual([]);
  });

  it("pages seen through a shared folder follow moves in and out of it", async () => {
    const owner = await registered("owner");
    const reader = await registered("reader");
    const w = word();
    const shared = await createFolder(owner, { name: "Shared" });
    const inner = await createFolder(owner, { name: "Inner" });
    const pageId = await createPage(owner, { parentId: inner, markdown: w });
    await share(owner, "folder", shared, reader.email, "view");
    expect((await search(reader, w)).hits).toEqual([]);
    expect((await owner.post(`/folders/${inner}/move`, { parentId: shared })).status).toBe(200);
    expect((await search(reader, w)).hits).toEqual([
      expect.objectContaining({ id: pageId, folderPath: "Shared/Inner" }),
    ]);
    expect((await owner.post(`/pages/${pageId}/move`, { parentId: null })).status).toBe(200);
    expect((await search(reader, w)).hits).toEqual([]);
    expect((await search(owner, w)).hits).toEqual([expect.objectContaining({ id: pageId, folderPath: "" })]);
  });

  it("workspace members find the owner's pages; the index is rebuilt by replay", async () => {
    const owner = await registered("owner");
    const member = await registered("member");
    const w = word();
    const pageId = await createPage(owner, { markdown: `team ${w}` });
    await owner.post("/shares/workspace/members", { email: member.email, role: "viewer" });
    expect(ids((await search(member, w)).hits)).toEqual([pageId]);
    await file.server.rebuildReadModels();
    expect(ids((await search(member, w)).hits)).toEqual([pageId]);
    expect(ids((await search(owner, `te*  ${w}`)).hits)).toEqual([pageId]);
  });
});
