// GET /search: full-text search over the titles and markdown of the pages the caller can see.
import { z } from "zod";
import type { App } from "../../../shared/http/create-app.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody, listOf, paginationQuery } from "../../../shared/http/schemas.ts";
import { folderIdSchema, userIdSchema } from "../../../shared/kernel/ids.ts";
import { searchPages, searchResult } from "../../../shared/pages/search-pages.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";

/** An instant with its offset, compared as `updatedAt` is stored: ISO-8601 in UTC with milliseconds. */
const updatedInstant = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value).toISOString())
  .describe("ISO-8601 time with an offset; compared with updatedAt, bound excluded");

const searchQuerystring = paginationQuery.extend({
  q: z.string().trim().min(1).max(500),
  folderId: folderIdSchema
    .optional()
    .describe("only pages in this folder or below it (a folder the caller cannot see holds nothing)"),
  ownerId: userIdSchema.optional().describe("only pages of this workspace owner"),
  updatedAfter: updatedInstant.optional(),
  updatedBefore: updatedInstant.optional(),
  in: z.enum(["title"]).optional().describe("title: every term must match the title"),
});

export function searchQueryRoutes(app: App, views: ReadModels): void {
  app.get(
    "/search",
    {
      config: { access: { scope: "pages:read" } },
      schema: {
        querystring: searchQuerystring,
        response: { 200: listOf(searchResult), "4xx": errorBody },
      },
    },
    async (request) => searchPages(views, principalOf(request), request.query),
  );
}
