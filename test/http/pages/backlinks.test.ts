import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type TestUser } from "../../support/server.ts";
import { createFolder, createPage, share } from "../../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

type Item = { id: string; title: string; folderPath: string; permission: string };
const backlinks = async (
  user: TestUser,
  pageId: string,
  query = "",
): Promise<{ ids: string[]; items: Item[]; nextCursor: unknown; status: number }> => {
  const reply = await user.get(`/pages/${pageId}/backlinks${query}`);
  const items = (reply.body.data ?? []) as Item[];
  return { ids: items.map((item) => item.id), items, nextCursor: reply.body.nextCursor, status: reply.status };
};
const linkTo = (pageId: string, text = "see"): string => `[${text}](/api/v1/pages/${pageId})`;
const replace = (user: TestUser, pageId: string, markdown: string) =>
  user.call("PUT", `/pages/${pageId}/content`, { json: { markdown }, headers: { "if-match": "*" } });

describe("backlinks", () => {
  it("lists the pages whose markdown links to a page, newest link first, in any form the service writes", async () => {
    const ann = await server.registered("ann");
    const target = await createPage(ann, { title: "Target" });
    const plain = await createPage(ann, { title: "Plain", markdown: `Read ${linkTo(target)} first.` });
    const heading = await createPage(ann, {
      title: "Heading",
      markdown: `[Target > Goals](/api/v1/pages/${target}#goals)`,
    });
    const absolute = await createPage(ann, {
      title: "Absolute",
      markdown: `<https://example.com/api/v1/pages/${target}> and again ${linkTo(target)}`,
    });
    await createPage(ann, { title: "Unrelated", markdown: "no links" });
    const listed = await backlinks(ann, target);
    expect(listed.status).toBe(200);
    expect(listed.ids).toEqual([absolute, heading, plain]);
    expect(listed.items[0]).toMatchObject({ title: "Absolute", folderPath: "", permission: "owner" });
    const first = await backlinks(ann, target, "?limit=2");
    expect(first.ids).toEqual([absolute, heading]);
    const rest = await backlinks(ann, target, `?limit=2&cursor=${String(first.nextCursor)}`);
    expect(rest.ids).toEqual([plain]);
    expect(rest.nextCursor).toBeNull();
  });

  it("lists a link from a page the caller cannot see nowhere, and answers a page they cannot see as a missing one", async () => {
    const ann = await server.registered("ann");
    const bea = await server.registered("bea");
    const stranger = await server.registered("stranger");
    const target = await createPage(ann, { title: "Shared target" });
    const sharedSource = await createPage(ann, { markdown: linkTo(target) });
    const hiddenSource = await createPage(ann, { markdown: linkTo(target) });
    await share(ann, "page", target, bea.email, "view");
    await share(ann, "page", sharedSource, bea.email, "view");
    expect((await backlinks(ann, target)).ids).toEqual([hiddenSource, sharedSource]);
    expect((await backlinks(bea, target)).ids).toEqual([sharedSource]);
    expect((await backlinks(bea, target, "?limit=1")).nextCursor).toBeNull();
    const invisible = await stranger.get(`/pages/${target}/backlinks`);
    const missing = await stranger.get("/pages/00000000-0000-4000-8000-000000000000/backlinks");
    expect(invisible.status).toBe(404);
    expect(invisible.text).toBe(missing.text);
  });

  it("follows edits, moves and deletions of the linking pages", async () => {
    const ann = await server.registered("ann");
    const bea = await server.registered("bea");
    const target = await createPage(ann);
    await share(ann, "page", target, bea.email, "view");
    const source = await createPage(ann, { markdown: "nothing yet" });
    expect((await backlinks(ann, target)).ids).toEqual([]);

    expect((await replace(ann, source, `now ${linkTo(target)}`)).status).toBe(200);
    expect((await backlinks(ann, target)).ids).toEqual([source]);
    expect((await backlinks(bea, target)).ids).toEqual([]);

    const sharedFolder = await createFolder(ann);
    await share(ann, "folder", sharedFolder, bea.email, "view");
    expect((await ann.post(`/pages/${source}/move`, { parentId: sharedFolder })).status).toBe(200);
    expect((await backlinks(bea, target)).ids).toEqual([source]);

    expect((await replace(ann, source, "link removed")).status).toBe(200);
    expect((await backlinks(ann, target)).ids).toEqual([]);

    expect((await replace(ann, source, `back ${linkTo(target)}`)).status).toBe(200);
    expect((await ann.delete(`/pages/${source}`)).status).toBe(204);
    expect((await backlinks(ann, target)).ids).toEqual([]);
  });

  it("counts the links the vault import writes, and survives a rebuild of the read models", async () => {
    const ann = await server.registered("ann");
    const imported = await ann.post("/imports/obsidian", {
      files: [
        { path: "Notes/Budget.md", content: "Numbers" },
        { path: "Notes/Plan.md", content: "See [[Budget]] and [[Budget#Totals|the totals]]." },
      ],
    });
    expect(imported.status).toBe(201);
    const budget = (await ann.get("/pages/resolve?title=Budget")).body.data as Item[];
    const plan = (await ann.get("/pages/resolve?title=Plan")).body.data as Item[];
    const budgetId = budget[0]?.id ?? "";
    expect((await backlinks(ann, budgetId)).ids).toEqual([plan[0]?.id]);
    await server.rebuildReadModels();
    expect((await backlinks(ann, budgetId)).ids).toEqual([plan[0]?.id]);
  });
});
