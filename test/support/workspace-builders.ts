// Builders for pages, folders, shares and groups made through the public API, with sensible defaults.
import { randomUUID } from "node:crypto";
import type { Client, Reply, TestUser } from "./server.ts";

function expectStatus(reply: Reply, status: number, what: string): Reply {
  if (reply.status !== status) throw new Error(`${what}: expected ${status}, got ${reply.status} ${reply.text}`);
  return reply;
}

export async function createFolder(
  client: Client,
  options: { name?: string; parentId?: string } = {},
): Promise<string> {
  const reply = await client.post("/folders", {
    name: options.name ?? `folder ${randomUUID().slice(0, 8)}`,
    parentId: options.parentId ?? null,
  });
  return String(expectStatus(reply, 201, "create folder").body.id);
}

export async function createPage(
  client: Client,
  options: { title?: string; parentId?: string; markdown?: string } = {},
): Promise<string> {
  const reply = await client.post("/pages", {
    title: options.title ?? `page ${randomUUID().slice(0, 8)}`,
    markdown: options.markdown ?? "hello",
    parentId: options.parentId ?? null,
  });
  return String(expectStatus(reply, 201, "create page").body.id);
}

/** Replaces a page's markdown under its current ETag. */
export async function replaceContent(client: Client, pageId: string, markdown: string): Promise<void> {
  const etag = (await client.get(`/pages/${pageId}/content`)).headers.get("etag") ?? "";
  const reply = await client.call("PUT", `/pages/${pageId}/content`, {
    json: { markdown },
    headers: { "if-match": etag },
  });
  expectStatus(reply, 200, "replace content");
}

/** The positions of a page's changes, oldest first: the instants its versions can be read or compared at. */
export async function historyPositions(client: Client, pageId: string): Promise<string[]> {
  const history = expectStatus(await client.get(`/pages/${pageId}/history?order=asc`), 200, "page history");
  return (history.body.data as Array<{ position: string }>).map((item) => item.position);
}

/** A newly registered user and a page of theirs. */
export async function registeredWithPage(
  server: { registered(label: string): Promise<TestUser> },
  label = "owner",
): Promise<{ owner: TestUser; pageId: string }> {
  const owner = await server.registered(label);
  return { owner, pageId: await createPage(owner) };
}

export function share(
  client: Client,
  entityType: "page" | "folder",
  entityId: string,
  email: string,
  permission: string,
): Promise<Reply> {
  return client.post(`/shares/entity/${entityType}/${entityId}/grants`, { email, permission });
}

export function addMember(client: Client, email: string, role: string): Promise<Reply> {
  return client.post("/shares/workspace/members", { email, role });
}

/** A group of the caller's workspace; answers its id. */
export async function createGroup(client: Client, name = "Editors"): Promise<string> {
  return String(expectStatus(await client.post("/groups", { name }), 201, "create group").body.id);
}

export async function addToGroup(client: Client, groupId: string, member: TestUser): Promise<void> {
  expectStatus(await client.post(`/groups/${groupId}/members`, { email: member.email }), 200, "add to group");
}

/** An address nobody has registered. */
export const unknownAddress = (label = "invitee"): string => `${label}-${randomUUID().slice(0, 8)}@example.com`;
