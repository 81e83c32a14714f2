// What the probes need in place before they ask, made through the API with sensible defaults; every answer is
// checked against the document like any other.
import { randomUUID } from "node:crypto";
import { attachmentForm } from "../attachments.ts";
import { expectAnswer, header, read, type Agent } from "./probe.ts";

const named = (what: string) => `${what} ${randomUUID().slice(0, 8)}`;

export async function createFolder(
  agent: Agent,
  options: { name?: string; parentId?: string | null } = {},
): Promise<string> {
  const created = await agent.post("/api/v1/folders", {
    name: options.name ?? named("folder"),
    parentId: options.parentId ?? null,
  });
  return read(expectAnswer(created, 201, "a folder"), "id");
}

/** A page, and the position of its creation (an instant of its history). */
export async function createPage(
  agent: Agent,
  options: { title?: string; markdown?: string; parentId?: string | null } = {},
): Promise<{ id: string; created: string }> {
  const answer = await agent.post("/api/v1/pages", {
    title: options.title ?? named("page"),
    markdown: options.markdown ?? "some words",
    parentId: options.parentId ?? null,
  });
  expectAnswer(answer, 201, "a page");
  return { id: read(answer, "id"), created: header(answer, "x-consistency-token") };
}

/** The page's content and its ETag. */
export async function contentOf(agent: Agent, pageId: string): Promise<{ etag: string; text: string }> {
  const answer = expectAnswer(await agent.get(`/api/v1/pages/${pageId}/content`), 200, "a page's content");
  return { etag: header(answer, "etag"), text: answer.text };
}

export async function attach(
  agent: Agent,
  pageId: string,
  bytes: Uint8Array,
  headers: Record<string, string> = {},
): Promise<string> {
  const answer = await agent.send("POST", `/api/v1/pages/${pageId}/attachments`, {
    body: attachmentForm({ bytes, name: "file.bin" }),
    headers,
  });
  return read(expectAnswer(answer, 201, "an attachment"), "id");
}

export function imageForm(png: Uint8Array, alt = "a picture"): FormData {
  const form = new FormData();
  form.append("alt", alt);
  form.append("file", new Blob([Uint8Array.from(png)], { type: "image/png" }), "picture.png");
  return form;
}

export async function uploadImage(agent: Agent, pageId: string, png: Uint8Array): Promise<string> {
  const answer = await agent.send("POST", `/api/v1/pages/${pageId}/images`, { body: imageForm(png) });
  return read(expectAnswer(answer, 201, "an image"), "id");
}

/** A comment thread on a quote of the page: its id and its first comment's. */
export async function openThread(
  agent: Agent,
  pageId: string,
  quote = "words",
): Promise<{ threadId: string; commentId: string }> {
  const answer = expectAnswer(
    await agent.post(`/api/v1/pages/${pageId}/comments`, { body: "Why?", anchor: { quote } }),
    201,
    "a thread",
  );
  return { threadId: read(answer, "thread.id"), commentId: read(answer, "thread.comments.0.id") };
}

export async function reply(agent: Agent, pageId: string, threadId: string): Promise<string> {
  const answer = expectAnswer(
    await agent.post(`/api/v1/pages/${pageId}/comments/${threadId}/replies`, { body: "Because." }),
    201,
    "a reply",
  );
  return read(answer, "thread.comments.1.id");
}

/** A public share link of a page or folder: its id and its secret. */
export async function shareLink(
  agent: Agent,
  kind: "page" | "folder",
  id: string,
  body: Record<string, unknown> = {},
): Promise<{ id: string; secret: string }> {
  const answer = expectAnswer(await agent.post(`/api/v1/${kind}s/${id}/share-links`, body), 201, "a share link");
  const secret = new URL(read(answer, "url"), "http://any").pathname.split("/").pop() ?? "";
  return { id: read(answer, "id"), secret };
}

/** An address that has no account: sharing with it invites it. */
export const unknownAddress = (label = "invited"): string => `${label}-${randomUUID().slice(0, 8)}@example.com`;

/** Invites an address without an account to a page (202): the invitation's id. */
export async function invite(agent: Agent, pageId: string, email: string): Promise<string> {
  const answer = expectAnswer(
    await agent.post(`/api/v1/shares/entity/page/${pageId}/grants`, { email, permission: "view" }),
    202,
    "an invitation",
  );
  return read(answer, "invitation.id");
}

export async function deletePage(agent: Agent, pageId: string): Promise<void> {
  expectAnswer(await agent.delete(`/api/v1/pages/${pageId}`), 204, "a page deleted");
}
