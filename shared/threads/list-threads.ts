// Reading comment threads (GET /pages/{pageId}/comments and the MCP server's list_comments): a page's threads,
// newest first, filtered by status, each with its comments oldest first. Listing comments is part of commenting,
// so it needs comment permission; and one thread as a write to it answers.
import { z } from "zod";
import { requirePermission, visiblePage } from "../access/authorize.ts";
import type { Principal } from "../auth/principal.ts";
import { AppError } from "../errors/app-error.ts";
import { decodeCursor, pageOf } from "../read-store/pagination.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { presentThreads, type ThreadResource } from "./thread.resource.ts";

export const threadFilterSchema = z.enum(["open", "resolved", "all"]);

export interface ListThreadsQuery {
  readonly status: z.output<typeof threadFilterSchema>;
  readonly cursor?: string | undefined;
  readonly limit: number;
}

export async function listThreads(
  views: ReadModels,
  principal: Principal,
  pageId: string,
  query: ListThreadsQuery,
): Promise<{ data: ThreadResource[]; nextCursor: string | null }> {
  const { permission } = await visiblePage(views, principal, pageId);
  requirePermission(permission, "comment", "page");
  const { status, cursor, limit } = query;
  const rows = await views.threads.list({ pageId, status, before: decodeCursor(cursor), limit });
  const { rows: kept, nextCursor } = pageOf(rows, limit, (thread) => ({
    position: thread.createdPosition,
    id: thread.id,
  }));
  const content = await views.pages.getContent(pageId);
  return { data: await presentThreads(views.users, kept, content?.markdown ?? ""), nextCursor };
}

/** One thread as the read side now holds it, its anchor looked for in the page's markdown: a write's answer. */
export async function presentThread(
  views: Pick<ReadModels, "threads" | "pages" | "users">,
  target: { readonly pageId: string; readonly threadId: string },
): Promise<ThreadResource> {
  const thread = await views.threads.get(target.threadId);
  const content = await views.pages.getContent(target.pageId);
  const [presented] = thread ? await presentThreads(views.users, [thread], content?.markdown ?? "") : [];
  if (!presented) throw new AppError("internal", "thread was not recorded");
  return presented;
}
