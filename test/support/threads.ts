// Builders for comment thread tests: a page to comment on, a thread with sensible defaults, typed replies.
import { expect } from "vitest";
import type { ThreadResource } from "../../shared/threads/thread.resource.ts";
import type { Client, Reply, TestUser } from "./server.ts";

export const anchor = { quote: "the quoted words", prefix: "text before ", suffix: " text after" };

/** What a page to comment on is made of (with `createPage`): its text holds the anchor's quote. */
export const commentedPage = { title: "Commented page", markdown: "Some text before the quoted words and after." };

/** The `{thread}` of a successful comment command. */
export function threadOf(reply: Reply): ThreadResource {
  expect(reply.status, reply.text).toBeLessThan(300);
  return reply.body.thread as ThreadResource;
}

export async function openThread(
  user: Client,
  pageId: string,
  body = "first comment",
  anchorSent: unknown = anchor,
): Promise<ThreadResource> {
  const reply = await user.post(`/pages/${pageId}/comments`, { body, anchor: anchorSent });
  expect(reply.status, reply.text).toBe(201);
  return threadOf(reply);
}

export async function listThreads(
  user: Client,
  pageId: string,
  query = "",
): Promise<{ data: ThreadResource[]; nextCursor: string | null }> {
  const reply = await user.get(`/pages/${pageId}/comments${query}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body as unknown as { data: ThreadResource[]; nextCursor: string | null };
}

/** Every thread id of a listing, following nextCursor to the end with `limit` threads a request. */
export async function walkThreads(
  user: Client,
  pageId: string,
  status: string | null,
  limit: number,
): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ limit: String(limit) });
    if (status !== null) params.set("status", status);
    if (cursor !== null) params.set("cursor", cursor);
    const page = await listThreads(user, pageId, `?${params.toString()}`);
    expect(page.data.length).toBeLessThanOrEqual(limit);
    ids.push(...page.data.map((thread) => thread.id));
    cursor = page.nextCursor;
  } while (cursor !== null);
  return ids;
}

/** Gives `user` a permission on `owner`'s page through the sharing route. */
export async function grantOnPage(
  owner: TestUser,
  user: TestUser,
  pageId: string,
  permission: "view" | "comment",
): Promise<void> {
  expect((await user.get("/me")).status).toBe(200);
  const reply = await owner.post(`/shares/entity/page/${pageId}/grants`, { email: user.email, permission });
  expect(reply.status).toBe(200);
}
