// Page queries: the access-filtered list, one page, exact-title lookup with folderPath, and the markdown.
import { z } from "zod";
import { visiblePage } from "../../../shared/access/authorize.ts";
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
import type { PageRecord } from "../../../shared/pages/page-record.ts";
import { instantSchema, refuseFuture, type Instant } from "../../../shared/history/instant.ts";
import { pageRecordAt } from "../../../shared/history/read-history.ts";
import { listPages } from "../../../shared/pages/list-pages.ts";
import { listTemplates } from "../../../shared/templates/list-templates.ts";
import { resolvePages } from "../../../shared/pages/resolve-pages.ts";
import type { Principal } from "../../../shared/auth/principal.ts";
import type { ProjectionProgress } from "../../../shared/read-store/checkpoint-watcher.ts";

/** What a read as of an instant needs besides the views: today's time and how far history reaches. */
export interface AsOfPorts {
  readonly clock: () => Date;
  readonly projection: Pick<ProjectionProgress, "current">;
}

const atQuery = z.object({ at: instantSchema.optional() });

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
    async (request) => listPages(views, principalOf(request), request.query),
  );

  app.get(
    "/templates",
    {
      config: { access: { scope: "pages:read" } },
      schema: { querystring: paginationQuery, response: { 200: listOf(pageResource), "4xx": errorBody } },
    },
    async (request) => listTemplates(views, principalOf(request), request.query),
  );

  app.get(
    "/pages/resolve",
    {
      config: { access: { scope: "pages:read" } },
      schema: {
        querystring: z.object({
          title: z
            .string()
            .trim()
            .min(1)
            .max(200)
            .transform((title) => title.normalize("NFC")),
          folderPath: z.string().max(2000).optional(),
        }),
        response: { 200: z.object({ data: z.array(resolvedPageResource) }), "4xx": errorBody },
      },
    },
    async (request) => ({ data: await resolvePages(views, principalOf(request), request.query) }),
  );

  app.get(
    "/pages/:pageId",
    {
      config: { access: { scope: "pages:read" } },
      schema: {
        params: z.object({ pageId: pageIdSchema }),
        querystring: atQuery,
        response: { 200: pageResource, "4xx": errorBody },
      },
    },
    async (request) => {
      const { at } = request.query;
      const { shown, permission } = at
        ? await pageAt(principalOf(request), request.params.pageId, at)
        : await visiblePage(views, principalOf(request), request.params.pageId);
      return toPageResource(shown, permission);
    },
  );

  app.get(
    "/pages/:pageId/content",
    {
      config: { access: { scope: "pages:read" } },
      schema: {
        params: z.object({ pageId: pageIdSchema }),
        querystring: atQuery,
        response: { 200: z.string(), 304: z.null(), "4xx": errorBody },
      },
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
      if (notModified(found.shown))
        return reply
          .header("etag", etagOf(found.shown))
          .header("cache-control", "private, no-cache")
          .code(304)
          .send(null);
      const content = await views.pages.getContent(pageId);
      if (!content) throw new AppError("not_found", "page not found");
      return send(seenBy(await views.access.contextFor(principal.user.id), content.page), content.markdown);
    },
  );
}
