// The authorization matrix: for each permission a caller can hold on a page and its folder (none, view,
// comment, edit, admin, owner), obtained directly, through an ancestor folder's grant or through a workspace
// role, what every page and folder route answers. Invisible is 404, visible but not allowed is 403.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type Reply, type TestUser } from "../../support/server.ts";
import { addMember, createFolder, createPage, share } from "../../support/workspace-builders.ts";

type Level = "none" | "view" | "comment" | "edit" | "admin" | "owner";
type Via = "direct grant" | "ancestor folder grant" | "workspace role" | "nothing" | "ownership";

const byLevel = (
  none: string,
  view: string,
  comment: string,
  edit: string,
  admin: string,
  owner: string,
): Record<Level, string> => ({ none, view, comment, edit, admin, owner });

/** A list shows the item with the caller's permission, or leaves it out without any. */
const LISTED_AT_LEVEL = byLevel(
  "absent",
  "listed view",
  "listed comment",
  "listed edit",
  "listed admin",
  "listed owner",
);

/** What each route answers, read as "status [the permission field]" or whether the item is listed. */
const expected = {
  "GET /pages (list)": LISTED_AT_LEVEL,
  "GET /pages/resolve": LISTED_AT_LEVEL,
  "GET /pages/{id}": byLevel("404", "200 view", "200 comment", "200 edit", "200 admin", "200 owner"),
  "GET /pages/{id}/content": byLevel("404", "200", "200", "200", "200", "200"),
  "GET /folders (list)": LISTED_AT_LEVEL,
  "GET /folders/{id}": byLevel("404", "200 view", "200 comment", "200 edit", "200 admin", "200 owner"),
  "PATCH /pages/{id}": byLevel("404", "403", "403", "200 edit", "200 admin", "200 owner"),
  "PUT /pages/{id}/content": byLevel("404", "403", "403", "200", "200", "200"),
  "POST /pages into the folder": byLevel("404", "403", "403", "201 edit", "201 admin", "201 owner"),
  "POST /folders into the folder": byLevel("404", "403", "403", "201 edit", "201 admin", "201 owner"),
  "POST grants on the page (view)": byLevel("404", "403", "403", "403", "200", "200"),
  "POST grants on the folder (view)": byLevel("404", "403", "403", "403", "200", "200"),
  "POST grants on the page (admin)": byLevel("404", "403", "403", "403", "403", "200"),
  "GET /shares/entity/page/{id}": byLevel("404", "403", "403", "403", "200", "200"),
  "DELETE /pages/{id}": byLevel("404", "403", "403", "204", "204", "204"),
} as const;
type Route = keyof typeof expected;

const roles = { view: "viewer", comment: "commenter", edit: "editor", admin: "admin" } as const;

let server: TestServer;
let third: TestUser;
beforeAll(async () => {
  server = await TestServer.start();
  third = await server.signIn("third");
  await third.get("/me");
});
afterAll(async () => {
  await server.stop();
});

interface World {
  readonly caller: TestUser;
  /** top folder ⊃ folder ⊃ page */
  readonly folderId: string;
  readonly pageId: string;
  readonly title: string;
}

async function buildWorld(level: Level, via: Via): Promise<World> {
  const owner = await server.signIn("owner");
  const title = `matrix ${randomUUID()}`;
  const topId = await createFolder(owner);
  const folderId = await createFolder(owner, { parentId: topId });
  const pageId = await createPage(owner, { title, parentId: folderId });
  if (level === "owner") return { caller: owner, folderId, pageId, title };
  const caller = await server.signIn(`${level}-caller`);
  await caller.get("/me");
  if (level !== "none") {
    const granted: Reply[] =
      via === "direct grant"
        ? [
            await share(owner, "page", pageId, caller.email, level),
            await share(owner, "folder", folderId, caller.email, level),
          ]
        : via === "ancestor folder grant"
          ? [await share(owner, "folder", topId, caller.email, level)]
          : [await addMember(owner, caller.email, roles[level])];
    for (const reply of granted) expect(reply.status, reply.text).toBe(200);
  }
  return { caller, folderId, pageId, title };
}

const statusWith = (reply: Reply, field?: unknown): string =>
  reply.status < 300 && field !== undefined
    ? `${reply.status} ${typeof field === "string" ? field : JSON.stringify(field)}`
    : String(reply.status);
const listing = (items: unknown, id: string): string => {
  const found = (items as { id: string; permission: string }[]).find((item) => item.id === id);
  return found ? `listed ${found.permission}` : "absent";
};

async function exercise({ caller, folderId, pageId, title }: World): Promise<Record<Route, string>> {
  const sharePath = (type: string, id: string) => `/shares/entity/${type}/${id}/grants`;
  const pages = await caller.get("/pages?limit=100");
  const resolved = await caller.get(`/pages/resolve?title=${encodeURIComponent(title)}`);
  const page = await caller.get(`/pages/${pageId}`);
  const content = await caller.get(`/pages/${pageId}/content`);
  const folders = await caller.get("/folders?limit=100");
  const folder = await caller.get(`/folders/${folderId}`);
  const patched = await caller.patch(`/pages/${pageId}`, { icon: "📄" });
  const replaced = await caller.call("PUT", `/pages/${pageId}/content`, {
    json: { markdown: "rewritten" },
    headers: { "if-match": "*" },
  });
  const newPage = await caller.post("/pages", { title: "child page", parentId: folderId });
  const newFolder = await caller.post("/folders", { name: "child folder", parentId: folderId });
  const pageShare = await caller.post(sharePath("page", pageId), { email: third.email, permission: "view" });
  const folderShare = await caller.post(sharePath("folder", folderId), { email: third.email, permission: "view" });
  const adminShare = await caller.post(sharePath("page", pageId), { email: third.email, permission: "admin" });
  const shares = await caller.get(`/shares/entity/page/${pageId}`);
  const deleted = await caller.delete(`/pages/${pageId}`);
  return {
    "GET /pages (list)": listing(pages.body.data, pageId),
    "GET /pages/resolve": listing(resolved.body.data, pageId),
    "GET /pages/{id}": statusWith(page, page.body.permission),
    "GET /pages/{id}/content": statusWith(content),
    "GET /folders (list)": listing(folders.body.data, folderId),
    "GET /folders/{id}": statusWith(folder, folder.body.permission),
    "PATCH /pages/{id}": statusWith(patched, patched.body.permission),
    "PUT /pages/{id}/content": statusWith(replaced),
    "POST /pages into the folder": statusWith(newPage, newPage.body.permission),
    "POST /folders into the folder": statusWith(newFolder, newFolder.body.permission),
    "POST grants on the page (view)": statusWith(pageShare),
    "POST grants on the folder (view)": statusWith(folderShare),
    "POST grants on the page (admin)": statusWith(adminShare),
    "GET /shares/entity/page/{id}": statusWith(shares),
    "DELETE /pages/{id}": statusWith(deleted),
  };
}

const expectedFor = (level: Level): Record<Route, string> =>
  Object.fromEntries(Object.entries(expected).map(([route, statuses]) => [route, statuses[level]])) as Record<
    Route,
    string
  >;

const cases: { level: Level; via: Via }[] = [
  { level: "none", via: "nothing" },
  ...(["view", "comment", "edit", "admin"] as const).flatMap((level) =>
    (["direct grant", "ancestor folder grant", "workspace role"] as const).map((via) => ({ level, via })),
  ),
  { level: "owner", via: "ownership" },
];

describe("authorization matrix", () => {
  it.each(cases)(
    "a caller with $level access (via $via) gets the expected answer from every route",
    async ({ level, via }) => {
      const world = await buildWorld(level, via);
      expect(await exercise(world)).toEqual(expectedFor(level));
    },
  );
});
