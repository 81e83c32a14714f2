// GET /pages/{pageId}/diff?from=…&to=…: the change between two instants of a page, as a unified diff
// (text/x-diff) or, asked with Accept: application/json, as hunks; the same access rules as ?at=.
import { z } from "zod";
import type { App } from "../../../shared/http/create-app.ts";
import { principalOf } from "../../../shared/http/guard.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import { instantSchema } from "../../../shared/history/instant.ts";
import { diffHunkSchema } from "../../../shared/history/page-diff.compute.ts";
import { pageDiffBetween, type DiffPorts } from "../../../shared/history/page-diff-between.ts";
import { pageIdSchema } from "../../../shared/kernel/ids.ts";

const fieldChange = z.object({ from: z.string().nullable(), to: z.string().nullable() }).nullable();

const pageDiffResource = z
  .object({
    pageId: z.uuid(),
    fromPosition: z.string().describe("the history position of the version compared at `from`"),
    toPosition: z.string().describe("the history position of the version compared at `to`"),
    title: fieldChange.describe("the title before and after, or null when it did not change"),
    icon: fieldChange.describe("the icon before and after, or null when it did not change"),
    hunks: z.array(diffHunkSchema),
    linesAdded: z.number().int(),
    linesRemoved: z.number().int(),
  })
  .meta({
    id: "PageDiff",
    description: "The change between two versions of a page: title, icon and the markdown's line hunks",
  });

const diffQuery = z.object({
  from: instantSchema.describe("a position from the history or an ISO-8601 time with an offset, as ?at= takes it"),
  to: instantSchema.optional().describe("as `from`; now when absent"),
});

const wantsJson = (accept: string | undefined): boolean =>
  accept !== undefined && /\bapplication\/json\b/i.test(accept);

export function diffQueryRoutes(app: App, ports: DiffPorts): void {
  app.get(
    "/pages/:pageId/diff",
    {
      config: { access: { scope: "pages:read" } },
      schema: {
        params: z.object({ pageId: pageIdSchema }),
        querystring: diffQuery,
        response: {
          200: z.union([pageDiffResource, z.string().describe("the unified diff (text/x-diff)")]),
          "4xx": errorBody,
        },
      },
    },
    async (request, reply) => {
      const { from, to } = request.query;
      const answer = await pageDiffBetween(ports, principalOf(request), request.params.pageId, { from, to });
      reply.header("cache-control", "private, no-cache").header("vary", "Accept");
      if (wantsJson(request.headers.accept)) {
        const { unified: _unified, ...json } = answer;
        return json;
      }
      return reply.type("text/x-diff; charset=utf-8").send(answer.unified);
    },
  );
}
