// Page queries: the access-filtered list, one page, exact-title lookup with folderPath, and the markdown.
import { z } from "zod";
import { visiblePage } from "../../../shared/access/authorize.ts";
import { effectivePermission, presentVisible, visibilityFilter, type AccessContext } from "../../../shared/access/effective-permission.ts";
import { seenBy, type Seen } from "../../../shared/access/seen-by.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { App } from "../../../shared/http/create-app.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { ifNoneMatchHits } from "../../../shared/http/if-none-match.ts";
import { errorBody, listOf, paginationQuery } from "../../../shared/http/schemas.ts";
import { folderIdSchema, pageIdSchema } from "../../../shared/kernel/ids.ts";
import { etagOf, renderPageDocument } from "../../../shared/pages/page-document.ts";
import { pageResource, resolvedPageResource, toPageResource } from "../../../shared/pages/page.resource.ts";
import { titleKey, type PageRecord } from "../../../shared/pages/pages.view.ts";
import { decodeListCursor, pageOf } from "../../../shared/read-store/pagination.ts";
import { instantSchema, refuseFuture, type Instant } from "../../../shared/history/instant.ts";
import { pageRecordAt } from "../../../shared/history/read-history.ts";
import type { Principal } from "../../../shared/auth/principal.ts";
import type { ProjectionProgress } from "../../../shared/read-store/checkpoint-watcher.ts";

/** What a read as of an instant needs besides the views: today's time and how far history reaches. */
export interface AsOfPorts {
  readonly clock: () => Date;
  readonly projection: Pick<ProjectionProgress, "current">;
}

const atQuery = z.object({ at: instantSchema.optional() });

/** Exact-title lookups answer at most this many pages (no cursor, per the spec). */
export const RESOLVE_LIMIT = 100;
/** Visible same-titled pages considered before the folderPath filter. */
const RESOLVE_CANDIDATES = 1_000;

/** Folder names are stored in NFC: the path asked for is compared in NFC too, part by part, ignoring case. */
const folderPathKey = (path: string): string =>
  path
    .normalize("NFC")
    .split("/")
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part.length > 0)
    .join("/");

export async function folderVisibleTo(views: ReadModels, context: AccessContext, folderId: string): Promise<boolean> {
  const folder = await views.folders.get(folderId);
  return folder !== null && effectivePermission(context, { kind: "folder", ...folder }) !== null;
}

export function pageQueryRoutes(app: App, views: ReadModels, asOf: AsOfPorts): void {
  /** The page as it was at the instant, checked with today's permission: built from its history. */
  const pageAt = async (principal: Principal, pageId: string, at: Instant) => {
    refuseFuture(at, asOf.clock(), await asOf.projection.current());
    return pageRecordAt(views, principal, pageId, at);
  };

  app.get(
    "/pages",
    {
      config: { access: { scope: "pages:read" } },
      schema: {
        querystring: paginationQuery.extend({ parentId: folderIdSchema.optional() }),
        response: { 200: listOf(pageResource), "4xx": errorBody },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const context = await views.access.contextFor(principal.user.id);
      const { limit, cursor, parentId } = request.query;
      // A folder the caller cannot view holds nothing for them, as an unknown one.
      if (parentId !== undefined && !(await folderVisibleTo(views, context, parentId))) return { data: [], nextCursor: null };
      const rows = await views.pages.list({
        visibleTo: visibilityFilter(context),
        before: decodeListCursor(cursor),
        limit,
        parentId: parentId ?? null,
      });
      const { rows: kept, nextCursor } = pageOf(rows, limit, (page) => ({ position: page.updatedPosition, id: page.id }));
      return { data: presentVisible(context, "page", kept, toPageResource), nextCursor };
    },
  );

  app.get(
    "/pages/resolve",
    {
      config: { access: { scope: "pages:read" } },
      schema: {
        querystring: z.object({ title: z.string().trim().min(1).max(200).transform((title) => title.normalize("NFC")), folderPath: z.string().max(2000).optional() }),
        response: { 200: z.object({ data: z.array(resolvedPageResource) }), "4xx": errorBody },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const context = await views.access.contextFor(principal.user.id);
      const wantedPath = request.query.folderPath === undefined ? null : folderPathKey(request.query.folderPath);
      // Only pages the caller can see are candidates (the filter is inside the query), so a folderPath filter
      // applied here can be hidden by nothing but the caller's own same-titled pages.
      const candidates = await views.pages.findByTitleKey(titleKey(request.query.title), visibilityFilter(context), RESOLVE_CANDIDATES);
      // The path compared is the one the caller is shown, so a hidden folder's name matches nothing.
      const inPath = candidates.filter((page) => wantedPath === null || folderPathKey(seenBy(context, page).folderPath) === wantedPath);
      const data = presentVisible(context, "page", inPath, (page, permission) => ({ ...toPageResource(page, permission), folderPath: page.folderPath }));
      return { data: data.slice(0, RESOLVE_LIMIT) };
    },
  );

  app.get(
    "/pages/:pageId",
    {
      config: { access: { scope: "pages:read" } },
      schema: { params: z.object({ pageId: pageIdSchema }), querystring: atQuery, response: { 200: pageResource, "4xx": errorBody } },
    },
    async (request) => {
      const { at } = request.query;
      const { shown, permission } = at ? await pageAt(principalOf(request), request.params.pageId, at) : await visiblePage(views, principalOf(request), request.params.pageId);
      return toPageResource(shown, permission);
    },
  );

  app.get(
    "/pages/:pageId/content",
    {
      config: { access: { scope: "pages:read" } },
      schema: { params: z.object({ pageId: pageIdSchema }), querystring: atQuery, response: { 200: z.string(), 304: z.null(), "4xx": errorBody } },
    },
    async (request, reply) => {
      const { at } = request.query;
      const principal = principalOf(request);
      const pageId = request.params.pageId;
      // Access is decided on the listing row (or, as of an instant, on where the page stands today) before the
      // markdown, whose size grows with the page, is read: a page the caller cannot see costs what a missing one costs.
      const found = at ? await pageAt(principal, pageId, at) : await visiblePage(views, principal, pageId);
      const notModified = (shown: Seen<PageRecord>) => ifNoneMatchHits(request.headers["if-none-match"], etagOf(shown));
      const send = (shown: Seen<PageRecord>, markdown: string) => {
        reply.header("etag", etagOf(shown)).header("cache-control", "private, no-cache");
        if (notModified(shown)) return reply.code(304).send(null);
        return reply.type("text/markdown; charset=utf-8").send(renderPageDocument(shown, markdown));
      };
      if ("markdown" in found) return send(found.shown, found.markdown);
      // An unchanged page is answered from the listing row alone.
      if (notModified(found.shown)) return reply.header("etag", etagOf(found.shown)).header("cache-control", "private, no-cache").code(304).send(null);
      const content = await views.pages.getContent(pageId);
      if (!content) throw new AppError("not_found", "page not found");
      return send(seenBy(await views.access.contextFor(principal.user.id), content.page), content.markdown);
    },
  );
}
