// A vault imported into a folder, and imported again: what the earlier import made from the same paths in the same
// place is updated (pages where the user now keeps them, attachments' bytes), nothing is made twice, and what the
// user deleted since stays deleted, reported. The answer counts what was created, updated and left unchanged.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type Client } from "../../support/server.ts";
import { contentOf, importVault, resolve } from "../../support/vault-import.ts";
import { share } from "../../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

const pdf = (text: string): string => Buffer.from(`%PDF-1.7\n${text}\n%%EOF\n`).toString("base64");
const importInto = (
  user: Client,
  folderId: string,
  files: Array<{ path: string; content: string }>,
  headers: Record<string, string> = {},
) => user.call("POST", `/imports/obsidian?folderId=${folderId}`, { json: { files }, headers });
const newFolder = async (user: Client, name: string): Promise<string> => {
  const reply = await user.post("/folders", { name });
  expect(reply.status, reply.text).toBe(201);
  return String(reply.body.id);
};

describe("an import into a folder", () => {
  it("puts the vault's root in the folder and its directories below it", async () => {
    const ann = await server.registered("ann");
    const folderId = await newFolder(ann, "Vault");
    const reply = await importInto(ann, folderId, [
      { path: "Home.md", content: "# Home" },
      { path: "Work/Plan.md", content: "plan" },
    ]);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({
      foldersCreated: 1,
      pagesCreated: 2,
      created: 3,
      updated: 0,
      unchanged: 0,
      errors: [],
    });
    expect((await resolve(ann, "Home")).map((page) => page.folderPath)).toEqual(["Vault"]);
    expect((await resolve(ann, "Plan")).map((page) => page.folderPath)).toEqual(["Vault/Work"]);
  });

  it("answers 404 for a folder the caller cannot see, as for a missing one, and 403 without edit on it", async () => {
    const bea = await server.registered("bea");
    const cal = await server.registered("cal");
    const hidden = await newFolder(bea, "Private");
    const files = [{ path: "x.md", content: "x" }];
    const unseen = await importInto(cal, hidden, files);
    const missing = await importInto(cal, "00000000-0000-4000-8000-000000000000", files);
    expect([unseen.status, missing.status]).toEqual([404, 404]);
    expect(unseen.body).toEqual(missing.body);
    expect((await share(bea, "folder", hidden, cal.email, "view")).status).toBe(200);
    const viewOnly = await importInto(cal, hidden, files);
    expect(viewOnly.status, viewOnly.text).toBe(403);
    expect(await resolve(cal, "x")).toEqual([]);
  });
});

describe("importing the same vault again", () => {
  it("updates the pages and attachments it made, leaves the rest unchanged and makes nothing twice", async () => {
    const dan = await server.registered("dan");
    const folderId = await newFolder(dan, "Notes");
    const first = [
      { path: "Home.md", content: "Start at [[Plan]], read [[paper.pdf]]." },
      { path: "Work/Plan.md", content: "plan v1" },
      { path: "paper.pdf", content: pdf("v1") },
    ];
    const made = await importInto(dan, folderId, first);
    expect(made.body).toMatchObject({
      pagesCreated: 2,
      attachmentsUploaded: 1,
      created: 4,
      updated: 0,
      unchanged: 0,
      errors: [],
    });
    const [home] = await resolve(dan, "Home");
    const attachmentUrl = /\/api\/v1\/attachments\/[0-9a-f-]{36}/.exec(await contentOf(dan, "Home"))?.[0];

    const second = [
      first[0],
      { path: "Work/Plan.md", content: "plan v2" },
      { path: "paper.pdf", content: pdf("v2") },
    ].flatMap((file) => file ?? []);
    const again = await importInto(dan, folderId, second);
    expect(again.status, again.text).toBe(201);
    // The folder and Home as they were; Plan and the paper updated.
    expect(again.body).toMatchObject({
      foldersCreated: 0,
      pagesCreated: 0,
      attachmentsUploaded: 0,
      created: 0,
      updated: 2,
      unchanged: 2,
      errors: [],
    });
    expect((await resolve(dan, "Plan")).length).toBe(1);
    expect(await contentOf(dan, "Plan")).toBe("plan v2");
    expect((await resolve(dan, "Home")).map((page) => page.id)).toEqual([home?.id]);
    expect(await contentOf(dan, "Home")).toContain(String(attachmentUrl));
    const served = await fetch(`${server.url}${String(attachmentUrl)}`, {
      headers: {
        cookie: `app-auth.session_token=${dan.credentials && "cookie" in dan.credentials ? dan.credentials.cookie : ""}`,
      },
    });
    expect(await served.text()).toContain("v2");
    expect(((await dan.get(`/pages/${String(home?.id)}/attachments`)).body.data as unknown[]).length).toBe(1);

    const third = await importInto(dan, folderId, second);
    expect(third.body).toMatchObject({ created: 0, updated: 0, unchanged: 4, errors: [] });
  });

  it("updates a page where the user moved it, and leaves a page the user trashed in the trash, reported", async () => {
    const eve = await server.registered("eve");
    const folderId = await newFolder(eve, "Vault");
    const elsewhere = await newFolder(eve, "Elsewhere");
    const files = (version: string) => [
      { path: "Kept.md", content: `kept ${version}` },
      { path: "Moved.md", content: `moved ${version}` },
      { path: "Gone.md", content: `gone ${version}` },
    ];
    expect((await importInto(eve, folderId, files("v1"))).status).toBe(201);
    const [moved] = await resolve(eve, "Moved");
    const [gone] = await resolve(eve, "Gone");
    expect((await eve.post(`/pages/${String(moved?.id)}/move`, { parentId: elsewhere })).status).toBeLessThan(300);
    expect((await eve.delete(`/pages/${String(gone?.id)}`)).status).toBeLessThan(300);

    const again = await importInto(eve, folderId, files("v2"));
    expect(again.status, again.text).toBe(201);
    expect(again.body).toMatchObject({ created: 0, updated: 2, unchanged: 0 });
    expect(again.body.errors).toEqual([
      '"Gone.md": skipped: its page from an earlier import is in the trash; restore it to import the note into it again',
    ]);
    expect((await resolve(eve, "Moved")).map((page) => [page.id, page.folderPath])).toEqual([[moved?.id, "Elsewhere"]]);
    expect(await contentOf(eve, "Moved")).toBe("moved v2");
    expect(await resolve(eve, "Gone")).toEqual([]);
  });

  it("into another place makes new pages: the vault's place is part of what matches", async () => {
    const fay = await server.registered("fay");
    const files = [{ path: "Note.md", content: "n" }];
    expect((await importVault(fay, files)).body).toMatchObject({ pagesCreated: 1 });
    expect((await importVault(fay, files)).body).toMatchObject({ pagesCreated: 0, unchanged: 1 });
    expect((await importInto(fay, await newFolder(fay, "Copy"), files)).body).toMatchObject({ pagesCreated: 1 });
    expect((await resolve(fay, "Note")).length).toBe(2);
  });

  it("keeps Idempotency-Keys working: the same key and folder replays the answer, the same key for another folder is 422", async () => {
    const gus = await server.registered("gus");
    const folderId = await newFolder(gus, "Inbox");
    const files = [{ path: "One.md", content: "1" }];
    const headers = { "idempotency-key": "import-once" };
    const made = await importInto(gus, folderId, files, headers);
    const replayed = await importInto(gus, folderId, files, headers);
    expect(replayed.status).toBe(201);
    expect(replayed.body).toEqual(made.body);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect((await importVault(gus, files, headers)).status).toBe(422);
  });
});
