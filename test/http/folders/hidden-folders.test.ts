// Folder names and ids a caller cannot see stay hidden: a page or folder whose folder is invisible to them
// appears at their root, and every route that returns a page record or a folderPath says so.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type Client, type Reply, type TestUser } from "../../support/server.ts";
import { SseStream } from "../../support/sse.ts";
import { createFolder, createPage, share } from "../../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

const SECRET = "Top Secret M&A Project";
type Item = { id: string; parentId: string | null; folderPath?: string; name?: string };

/** Ann's secret folder with "Deals" inside; a page directly in each. Bob gets view on the first page and on "Deals". */
async function secretWorkspace() {
  const ann = await server.registered("ann");
  const bob = await server.registered("bob");
  const word = `needle${randomUUID().slice(0, 8)}`;
  const secret = await createFolder(ann, { name: SECRET });
  const deals = await createFolder(ann, { name: "Deals", parentId: secret });
  const memo = await createPage(ann, { title: `Memo ${word}`, parentId: secret, markdown: `about ${word}` });
  const plan = await createPage(ann, { title: `Plan ${word}`, parentId: deals, markdown: `about ${word}` });
  expect((await share(ann, "page", memo, bob.email, "view")).status).toBe(200);
  expect((await share(ann, "folder", deals, bob.email, "view")).status).toBe(200);
  return { ann, bob, word, secret, deals, memo, plan };
}

/** Nothing in the answer names the hidden folder, by name or by id. */
function expectNothingOf(reply: Reply, secretId: string, what: string): void {
  expect(reply.text, what).not.toContain("Top Secret");
  expect(reply.text, what).not.toContain(secretId);
}

const dataOf = (reply: Reply): Item[] => reply.body.data as Item[];
const byId = (items: Item[], id: string): Item | undefined => items.find((item) => item.id === id);
const frontmatterLine = (document: string, key: string): string | undefined =>
  document.split("\n").find((line) => line.startsWith(`${key}: `));
const firstPosition = async (client: Client, pageId: string): Promise<string> => {
  const history = await client.get(`/pages/${pageId}/history?order=asc&limit=1`);
  return String((history.body.data as Array<{ position: string }>)[0]?.position);
};

describe("a grantee inside a folder they cannot see", () => {
  it("sees the page at their root in GET /pages/{id}, its content, and both as of an instant", async () => {
    const { bob, secret, memo } = await secretWorkspace();
    const page = await bob.get(`/pages/${memo}`);
    expect(page.status).toBe(200);
    expect(page.body.parentId).toBeNull();
    expectNothingOf(page, secret, "GET /pages/{id}");

    const content = await bob.get(`/pages/${memo}/content`);
    expect(content.status).toBe(200);
    expect(frontmatterLine(content.text, "parentId")).toBe("parentId: null");
    expect(frontmatterLine(content.text, "folderPath")).toBe('folderPath: ""');
    expectNothingOf(content, secret, "GET /pages/{id}/content");

    const at = await firstPosition(bob, memo);
    const then = await bob.get(`/pages/${memo}?at=${at}`);
    expect(then.status).toBe(200);
    expect(then.body.parentId).toBeNull();
    expectNothingOf(then, secret, "GET /pages/{id}?at=");
    const contentThen = await bob.get(`/pages/${memo}/content?at=${at}`);
    expect(contentThen.status).toBe(200);
    expectNothingOf(contentThen, secret, "GET /pages/{id}/content?at=");
  });

  it("a visible folder below an invisible one shows from itself down: parentId of the page, path without the hidden part", async () => {
    const { bob, secret, deals, plan } = await secretWorkspace();
    const page = await bob.get(`/pages/${plan}`);
    expect(page.body.parentId).toBe(deals);
    const content = await bob.get(`/pages/${plan}/content`);
    expect(frontmatterLine(content.text, "folderPath")).toBe('folderPath: "Deals"');
    expectNothingOf(content, secret, "content below a visible folder");

    const folder = await bob.get(`/folders/${deals}`);
    expect(folder.status).toBe(200);
    expect(folder.body.parentId).toBeNull();
    expectNothingOf(folder, secret, "GET /folders/{id}");
    const folders = await bob.get("/folders?limit=100");
    expect(byId(dataOf(folders), deals)?.parentId).toBeNull();
    expectNothingOf(folders, secret, "GET /folders");
  });

  it("lists, search and resolve show the same places", async () => {
    const { bob, word, secret, memo, plan, deals } = await secretWorkspace();
    const list = await bob.get("/pages?limit=100");
    expect(byId(dataOf(list), memo)?.parentId).toBeNull();
    expect(byId(dataOf(list), plan)?.parentId).toBe(deals);
    expectNothingOf(list, secret, "GET /pages");

    const search = await bob.get(`/search?q=${word}`);
    expect(
      dataOf(search)
        .map((hit) => [hit.id, hit.parentId, hit.folderPath])
        .sort(),
    ).toEqual(
      [
        [memo, null, ""],
        [plan, deals, "Deals"],
      ].sort(),
    );
    expectNothingOf(search, secret, "GET /search");

    const memoTitle = `Memo ${word}`;
    const resolved = await bob.get(`/pages/resolve?title=${encodeURIComponent(memoTitle)}`);
    expect(dataOf(resolved).map((hit) => [hit.id, hit.parentId, hit.folderPath])).toEqual([[memo, null, ""]]);
    expectNothingOf(resolved, secret, "GET /pages/resolve");
    // The path filter compares with the path the caller is shown: the hidden name matches nothing.
    const bySecretPath = await bob.get(
      `/pages/resolve?title=${encodeURIComponent(memoTitle)}&folderPath=${encodeURIComponent(SECRET)}`,
    );
    expect(dataOf(bySecretPath)).toEqual([]);
    const atRoot = await bob.get(`/pages/resolve?title=${encodeURIComponent(memoTitle)}&folderPath=`);
    expect(dataOf(atRoot).map((hit) => hit.id)).toEqual([memo]);
    const planTitle = `Plan ${word}`;
    const inDeals = await bob.get(`/pages/resolve?title=${encodeURIComponent(planTitle)}&folderPath=Deals`);
    expect(dataOf(inDeals).map((hit) => hit.id)).toEqual([plan]);
    const bySecretDeals = await bob.get(
      `/pages/resolve?title=${encodeURIComponent(planTitle)}&folderPath=${encodeURIComponent(`${SECRET}/Deals`)}`,
    );
    expect(dataOf(bySecretDeals)).toEqual([]);
  });

  it("?parentId= of a folder they cannot see answers exactly as an unknown folder", async () => {
    const { bob, secret } = await secretWorkspace();
    const hidden = await bob.get(`/pages?parentId=${secret}`);
    const unknown = await bob.get(`/pages?parentId=${randomUUID()}`);
    expect(hidden.status).toBe(unknown.status);
    expect(hidden.text).toBe(unknown.text);
  });

  it("the answers of their own writes show the same places", async () => {
    const { ann, bob, secret, memo, deals } = await secretWorkspace();
    expect((await share(ann, "page", memo, bob.email, "edit")).status).toBe(200);
    expect((await share(ann, "folder", deals, bob.email, "edit")).status).toBe(200);

    const renamed = await bob.patch(`/pages/${memo}`, { title: "Renamed memo" });
    expect(renamed.status).toBe(200);
    expect(renamed.body.parentId).toBeNull();
    expectNothingOf(renamed, secret, "PATCH /pages/{id}");

    const replaced = await bob.call("PUT", `/pages/${memo}/content`, {
      body: "new words",
      headers: { "content-type": "text/markdown", "if-match": "*" },
    });
    expect(replaced.status).toBe(200);
    expectNothingOf(replaced, secret, "PUT /pages/{id}/content");

    const created = await bob.post("/pages", { title: "Bob's page", parentId: deals });
    expect(created.status).toBe(201);
    expect(created.body.parentId).toBe(deals);
    expectNothingOf(created, secret, "POST /pages");

    const sub = await bob.post("/folders", { name: "Sub", parentId: deals });
    expect(sub.status).toBe(201);
    expect(sub.body.parentId).toBe(deals);
    const moved = await bob.post(`/pages/${String(created.body.id)}/move`, { parentId: sub.body.id });
    expect(moved.status).toBe(200);
    expect(moved.body.folderPath).toBe("Deals/Sub");
    expectNothingOf(moved, secret, "POST /pages/{id}/move");

    const folderRenamed = await bob.patch(`/folders/${deals}`, { name: "Deals 2" });
    expect(folderRenamed.status).toBe(200);
    expect(folderRenamed.body.parentId).toBeNull();
    expectNothingOf(folderRenamed, secret, "PATCH /folders/{id}");
  });

  it("the owner and her workspace members still see the whole path", async () => {
    const { ann, secret, memo, deals } = await secretWorkspace();
    expect((await ann.get(`/pages/${memo}`)).body.parentId).toBe(secret);
    expect((await ann.get(`/folders/${deals}`)).body.parentId).toBe(secret);
    const content = await ann.get(`/pages/${memo}/content`);
    expect(frontmatterLine(content.text, "folderPath")).toBe(`folderPath: ${JSON.stringify(SECRET)}`);
    const member = await server.registered("member");
    expect((await ann.post("/shares/workspace/members", { email: member.email, role: "viewer" })).status).toBe(200);
    expect((await member.get(`/pages/${memo}`)).body.parentId).toBe(secret);
  });
});

describe("a caller granted a folder below the top", () => {
  it("sees the path from the topmost folder they can view", async () => {
    const ann: TestUser = await server.registered("ann");
    const bob = await server.registered("bob");
    const top = await createFolder(ann, { name: "Hidden top" });
    const middle = await createFolder(ann, { name: "Shared", parentId: top });
    const lower = await createFolder(ann, { name: "Lower", parentId: middle });
    const page = await createPage(ann, { parentId: lower });
    expect((await share(ann, "folder", middle, bob.email, "view")).status).toBe(200);
    const content = await bob.get(`/pages/${page}/content`);
    expect(frontmatterLine(content.text, "folderPath")).toBe('folderPath: "Shared/Lower"');
    expect(frontmatterLine(content.text, "parentId")).toBe(`parentId: ${JSON.stringify(lower)}`);
    expect((await bob.get(`/folders/${lower}`)).body.parentId).toBe(middle);
    expect((await bob.get(`/folders/${middle}`)).body.parentId).toBeNull();
    expect(content.text).not.toContain(top);
  });
});

describe("history and the change feed name only folders the caller can view", () => {
  type Described = { type: string; entity?: { id: string }; changes: Record<string, unknown> };

  /** Ann's page starts in one hidden folder and moves to another; Bob may view the page alone. */
  async function movedBetweenHidden() {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const first = await createFolder(ann, { name: SECRET });
    const second = await createFolder(ann, { name: "Top Secret too" });
    const page = await createPage(ann, { parentId: first });
    expect((await share(ann, "page", page, bob.email, "view")).status).toBe(200);
    expect((await ann.post(`/pages/${page}/move`, { parentId: second })).status).toBe(200);
    return { ann, bob, first, second, page };
  }

  const changesOf = (items: Described[], type: string) =>
    items.filter((item) => item.type === type).map((item) => item.changes);
  const expectNoId = (text: string, ids: string[], what: string) => {
    for (const id of ids) expect(text, what).not.toContain(id);
  };

  it("GET /pages/{id}/history shows a hidden folder as null (the root), the owner sees its id", async () => {
    const { ann, bob, first, second, page } = await movedBetweenHidden();
    const history = await bob.get(`/pages/${page}/history?order=asc`);
    expect(history.status).toBe(200);
    const items = history.body.data as Described[];
    expect(changesOf(items, "PageCreated")).toEqual([expect.objectContaining({ kind: "created", parentId: null })]);
    expect(changesOf(items, "PageMoved")).toEqual([{ kind: "moved", from: null, to: null }]);
    expectNoId(history.text, [first, second], "GET /pages/{id}/history");

    const owners = (await ann.get(`/pages/${page}/history?order=asc`)).body.data as Described[];
    expect(changesOf(owners, "PageCreated")).toEqual([expect.objectContaining({ parentId: first })]);
    expect(changesOf(owners, "PageMoved")).toEqual([{ kind: "moved", from: first, to: second }]);
  });

  it("a move into a folder they can view shows that folder, and GET /folders/{id}/history hides the one above", async () => {
    const { ann, bob, second, page } = await movedBetweenHidden();
    const deals = await createFolder(ann, { name: "Deals", parentId: second });
    expect((await share(ann, "folder", deals, bob.email, "view")).status).toBe(200);
    expect((await ann.post(`/pages/${page}/move`, { parentId: deals })).status).toBe(200);
    const history = await bob.get(`/pages/${page}/history?order=asc`);
    expect(changesOf(history.body.data as Described[], "PageMoved")).toEqual([
      { kind: "moved", from: null, to: null },
      { kind: "moved", from: null, to: deals },
    ]);
    expectNoId(history.text, [second], "GET /pages/{id}/history");

    const folderHistory = await bob.get(`/folders/${deals}/history?order=asc`);
    expect(folderHistory.status).toBe(200);
    expect(changesOf(folderHistory.body.data as Described[], "FolderCreated")).toEqual([
      expect.objectContaining({ kind: "created", parentId: null }),
    ]);
    expectNoId(folderHistory.text, [second], "GET /folders/{id}/history");
  });

  it("GET /changes shows them as null too, caught up and live, while the owner's feed names them", async () => {
    const { ann, bob, first, second, page } = await movedBetweenHidden();
    const bobs = await SseStream.open(`${server.url}/api/v1/changes?after=0`, bob.credentials);
    const anns = await SseStream.open(`${server.url}/api/v1/changes?after=0`, ann.credentials);
    try {
      const ofPage = (stream: SseStream) =>
        stream.changes().filter((change) => change.entity.id === page) as Described[];
      await bobs.until(() => ofPage(bobs).some((change) => change.type === "PageMoved"));
      expect((await ann.post(`/pages/${page}/move`, { parentId: first })).status).toBe(200);
      await bobs.until(() => changesOf(ofPage(bobs), "PageMoved").length === 2);
      await anns.until(() => changesOf(ofPage(anns), "PageMoved").length === 2);

      expect(changesOf(ofPage(bobs), "PageCreated")).toEqual([
        expect.objectContaining({ kind: "created", parentId: null }),
      ]);
      expect(changesOf(ofPage(bobs), "PageMoved")).toEqual([
        { kind: "moved", from: null, to: null },
        { kind: "moved", from: null, to: null },
      ]);
      expectNoId(bobs.events.map((event) => event.data).join("\n"), [first, second], "GET /changes");
      expect(changesOf(ofPage(anns), "PageMoved")).toEqual([
        { kind: "moved", from: first, to: second },
        { kind: "moved", from: second, to: first },
      ]);
    } finally {
      bobs.close();
      anns.close();
    }
  });
});
