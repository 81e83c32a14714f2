import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type TestUser } from "../../support/server.ts";
import { createFolder, createPage, share } from "../../support/workspace-builders.ts";
import { connectAgent } from "../../mcp/mcp-client.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

const body = (document: string): string => document.replace(/^---\n[\s\S]*?\n---\n/, "");

async function template(user: TestUser, title: string, markdown: string): Promise<string> {
  const id = await createPage(user, { title, markdown });
  const marked = await user.patch(`/pages/${id}`, { isTemplate: true });
  if (marked.status !== 200) throw new Error(`mark: ${marked.text}`);
  return id;
}

describe("templates", () => {
  it("fills {{title}}, {{date}} and {{author}} in a page made from a template", async () => {
    const ann = await server.registered("ann");
    const templateId = await template(ann, "Meeting notes", "# {{title}}\n\nOn {{date}} by {{author}}.");
    const made = await ann.post("/pages", { templateId, title: "Kick-off" });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ title: "Kick-off", unreachableMentions: [] });
    const today = new Date().toISOString().slice(0, 10);
    expect(body((await ann.get(`/pages/${String(made.body.id)}/content`)).text)).toBe(
      `# Kick-off\n\nOn ${today} by ${ann.name}.`,
    );
    const untitled = await ann.post("/pages", { templateId });
    expect(untitled.body).toMatchObject({ title: "Meeting notes" });
  });

  it("lists the templates the caller can view, and a stranger's template is missing from the list", async () => {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const templateId = await template(ann, "Retro", "went well");
    const mine = (await ann.get("/templates")).body.data as Array<{ id: string }>;
    expect(mine.map((page) => page.id)).toContain(templateId);
    const theirs = (await bob.get("/templates")).body.data as Array<{ id: string }>;
    expect(theirs.map((page) => page.id)).not.toContain(templateId);
    await ann.patch(`/pages/${templateId}`, { isTemplate: false });
    expect(((await ann.get("/templates")).body.data as Array<{ id: string }>).map((page) => page.id)).not.toContain(
      templateId,
    );
  });

  it("answers 404 for an invisible template in POST /pages, as for a missing one, and for a page that is no template", async () => {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const templateId = await template(ann, "Secret", "secret body");
    const invisible = await bob.post("/pages", { templateId, title: "Mine" });
    const missing = await bob.post("/pages", { templateId: "00000000-0000-4000-8000-000000000000", title: "Mine" });
    expect(invisible.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(invisible.body).toEqual(missing.body);
    const plain = await createPage(ann, { title: "Plain" });
    expect((await ann.post("/pages", { templateId: plain, title: "X" })).status).toBe(404);
  });

  it("a viewer may use a template but not mark a page as one", async () => {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const templateId = await template(ann, "Shared", "hello {{author}}");
    await share(ann, "page", templateId, bob.email, "view");
    expect((await bob.patch(`/pages/${templateId}`, { isTemplate: false })).status).toBe(403);
    const made = await bob.post("/pages", { templateId });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ ownerId: bob.id });
  });
});

describe("templates through MCP", () => {
  it("list_templates lists what GET /templates lists, and create_page with templateId fills the placeholders", async () => {
    const ann = await server.registered("ann");
    const templateId = await template(ann, "Standup", "{{title}} by {{author}}");
    const token = await ann.post("/tokens", { name: "agent", scopes: ["pages:read", "pages:write"] });
    const agent = await connectAgent(server.url, String(token.body.token));
    const listed = (await agent.call("list_templates", {})) as { templates: Array<{ id: string }> };
    expect(listed.templates.map((page) => page.id)).toEqual([templateId]);
    const made = (await agent.call("create_page", { templateId, title: "Monday" })) as { page: { id: string } };
    expect(body((await ann.get(`/pages/${made.page.id}/content`)).text)).toBe(`Monday by ${ann.name}`);
    await agent.close();
  });
});

describe("watching", () => {
  it("authors watch their page by default, can stop, and a folder's watch is reported", async () => {
    const ann = await server.registered("ann");
    const pageId = await createPage(ann, { title: "Mine" });
    expect((await ann.get(`/pages/${pageId}/watch`)).body).toEqual({ watching: true });
    expect((await ann.delete(`/pages/${pageId}/watch`)).body).toEqual({ watching: false });
    expect((await ann.get(`/pages/${pageId}/watch`)).body).toEqual({ watching: false });
    const folderId = await createFolder(ann, { name: "Projects" });
    const inside = await createPage(ann, { title: "Inside", parentId: folderId });
    await ann.delete(`/pages/${inside}/watch`);
    expect((await ann.call("PUT", `/folders/${folderId}/watch`, { json: {} })).body).toEqual({ watching: true });
    expect((await ann.get(`/folders/${folderId}/watch`)).body).toEqual({ watching: true });
  });

  it("a watch on an invisible page or folder is 404, as on a missing one", async () => {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const pageId = await createPage(ann, { title: "Private" });
    const folderId = await createFolder(ann, { name: "Private" });
    for (const path of [`/pages/${pageId}/watch`, `/folders/${folderId}/watch`]) {
      expect((await bob.call("PUT", path, { json: {} })).status).toBe(404);
      expect((await bob.delete(path)).status).toBe(404);
      expect((await bob.get(path)).status).toBe(404);
    }
  });

  it("autoWatch off: a page you create is not watched", async () => {
    const ann = await server.registered("ann");
    expect((await ann.get("/me/notification-settings")).body).toMatchObject({ autoWatch: true });
    expect((await ann.call("PUT", "/me/notification-settings", { json: { autoWatch: false } })).body).toMatchObject({
      autoWatch: false,
    });
    const pageId = await createPage(ann, { title: "Quiet" });
    expect((await ann.get(`/pages/${pageId}/watch`)).body).toEqual({ watching: false });
  });
});

describe("mentions and the people directory", () => {
  it("a mention of someone who cannot view the page reaches nobody and grants nothing", async () => {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const made = await ann.post("/pages", {
      title: "Plan",
      markdown: `Ask [@Bob](mention:${bob.id}) and [@Ann](mention:${ann.id})`,
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ unreachableMentions: [bob.id] });
    expect((await bob.get(`/pages/${String(made.body.id)}`)).status).toBe(404);
  });

  it("a stranger cannot find a user by name or email; a workspace member can find by name only", async () => {
    const ann = await server.registered("ann");
    const stranger = await server.registered("stranger");
    const nameStart = ann.name.slice(0, 3);
    expect((await stranger.get(`/users?query=${encodeURIComponent(ann.email)}`)).body).toEqual({ data: [] });
    expect((await stranger.get(`/users?query=${encodeURIComponent(nameStart)}`)).body).toEqual({ data: [] });
    const bob = await server.registered("bob");
    const pageId = await createPage(ann, { title: "Shared" });
    await share(ann, "page", pageId, bob.email, "view");
    const byAnn = (await ann.get(`/users?query=${encodeURIComponent(bob.email.slice(0, 5))}`)).body.data as Array<{
      id: string;
      email: string | null;
    }>;
    expect(byAnn).toEqual([expect.objectContaining({ id: bob.id, email: bob.email })]);
    const byBob = (await bob.get(`/users?query=${encodeURIComponent(nameStart)}`)).body.data as Array<{
      id: string;
      email: string | null;
    }>;
    expect(byBob).toEqual([expect.objectContaining({ id: ann.id, email: null })]);
    expect((await bob.get(`/users?query=${encodeURIComponent(ann.email)}`)).body).toEqual({ data: [] });
  });
});
