// The reading tools (pages:read): search, resolve_page, read_page, list_pages, list_folders, page_history and
// diff_page. Each calls the application function its GET route calls, so what a token cannot see is missing
// here as there, and a hidden folder's name never appears.
import { z } from "zod";
import { seenBy } from "../../../shared/access/seen-by.ts";
import { effectivePermission } from "../../../shared/access/effective-permission.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { folderResource } from "../../../shared/folders/folder.resource.ts";
import { actorRefSchema, changeSchema } from "../../../shared/history/change-summary.ts";
import { instantSchema, refuseFuture } from "../../../shared/history/instant.ts";
import { diffHunkSchema } from "../../../shared/history/page-diff.compute.ts";
import { pageDiffBetween, type DiffPorts } from "../../../shared/history/page-diff-between.ts";
import { pageHistoryFor, pageRecordAt } from "../../../shared/history/read-history.ts";
import { folderIdSchema, pageIdSchema, userIdSchema } from "../../../shared/kernel/ids.ts";
import { listFolders, listPages } from "../../../shared/pages/list-pages.ts";
import { listTemplates } from "../../../shared/templates/list-templates.ts";
import { etagOf } from "../../../shared/pages/page-document.ts";
import { pageResource, resolvedPageResource, toPageResource } from "../../../shared/pages/page.resource.ts";
import { resolvePages } from "../../../shared/pages/resolve-pages.ts";
import { searchPages, searchResult } from "../../../shared/pages/search-pages.ts";
import { decodeCursor, encodeCursor } from "../../../shared/read-store/pagination.ts";
import { defineTool, READ_ONLY, type McpTool } from "../mcp-tool.ts";

const limitField = z.number().int().min(1).max(100).default(50).describe("how many items to answer at most");
const cursorField = z.string().min(1).max(200).optional().describe("nextCursor of the previous answer, to read on");
const isoInstant = z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString());
const instantField = (what: string) =>
  z.string().describe(`${what}: a position from page_history, or an ISO-8601 time with an offset`).pipe(instantSchema);

export function readTools(ports: DiffPorts): McpTool[] {
  const { views } = ports;
  return [
    defineTool({
      name: "search",
      title: "Search pages",
      description:
        'Full-text search over the titles and markdown of the pages you can see; title hits first. Words must all match; "quoted phrases" and prefix* work.',
      scope: "pages:read",
      budget: "search",
      input: z.object({
        query: z.string().trim().min(1).max(500).describe("the words to find"),
        folderId: folderIdSchema.optional().describe("only pages in this folder or below it"),
        ownerId: userIdSchema.optional().describe("only pages of this workspace owner"),
        updatedAfter: isoInstant.optional().describe("only pages changed after this ISO-8601 time"),
        updatedBefore: isoInstant.optional().describe("only pages changed before this ISO-8601 time"),
        titleOnly: z.boolean().default(false).describe("every word must match the title"),
        limit: limitField,
        cursor: cursorField,
      }),
      output: z.object({ results: z.array(searchResult), nextCursor: z.string().nullable() }),
      annotations: { ...READ_ONLY, title: "Search pages" },
      async run(args, caller) {
        const { query, titleOnly, ...filters } = args;
        const found = await searchPages(views, caller.principal, {
          q: query,
          ...filters,
          ...(titleOnly ? { in: "title" as const } : {}),
        });
        return { results: found.data, nextCursor: found.nextCursor };
      },
    }),
    defineTool({
      name: "list_templates",
      title: "List templates",
      description: "The templates you can view, newest marked first: pass one's id as templateId to create_page.",
      scope: "pages:read",
      budget: "read",
      input: z.object({ limit: limitField, cursor: cursorField }),
      output: z.object({ templates: z.array(pageResource), nextCursor: z.string().nullable() }),
      annotations: { ...READ_ONLY, title: "List templates" },
      async run(args, caller) {
        const found = await listTemplates(views, caller.principal, args);
        return { templates: found.data, nextCursor: found.nextCursor };
      },
    }),
    defineTool({
      name: "resolve_page",
      title: "Find a page by its exact title",
      description:
        'The pages you can see whose title is exactly this one (ignoring case), optionally only in a folder path such as "Projects/2026".',
      scope: "pages:read",
      budget: "read",
      input: z.object({
        title: z.string().trim().min(1).max(200).describe("the page's exact title"),
        folderPath: z.string().max(2000).optional().describe("the folders above it, separated by /"),
      }),
      output: z.object({ pages: z.array(resolvedPageResource) }),
      annotations: { ...READ_ONLY, title: "Find a page by title" },
      async run(args, caller) {
        return {
          pages: await resolvePages(views, caller.principal, {
            title: args.title.normalize("NFC"),
            folderPath: args.folderPath,
          }),
        };
      },
    }),
    defineTool({
      name: "read_page",
      title: "Read a page",
      description:
        "A page's markdown and its ETag (give the ETag to edit_page, replace_page_content or restore_page_version); with `at`, the page as it was then.",
      scope: "pages:read",
      budget: "read",
      input: z.object({ pageId: pageIdSchema, at: instantField("the instant to read it as of").optional() }),
      output: z.object({ page: resolvedPageResource, markdown: z.string(), etag: z.string() }),
      annotations: { ...READ_ONLY, title: "Read a page" },
      async run(args, caller) {
        if (args.at) {
          refuseFuture(args.at, ports.clock(), await ports.projection.current());
          const then = await pageRecordAt(views, caller.principal, args.pageId, args.at);
          return {
            page: { ...toPageResource(then.shown, then.permission), folderPath: then.shown.folderPath },
            markdown: then.markdown,
            etag: etagOf(then.shown),
          };
        }
        const content = await views.pages.getContent(args.pageId);
        const context = await views.access.contextFor(caller.principal.user.id);
        const permission = content ? effectivePermission(context, { kind: "page", ...content.page }) : null;
        if (!content || !permission) throw new AppError("not_found", "page not found");
        const shown = seenBy(context, content.page);
        return {
          page: { ...toPageResource(shown, permission), folderPath: shown.folderPath },
          markdown: content.markdown,
          etag: etagOf(content.page),
        };
      },
      text: (result) => `${result.page.title} (ETag ${result.etag})\n\n${result.markdown}`,
    }),
    defineTool({
      name: "list_pages",
      title: "List a folder's pages and sub-folders",
      description:
        "The pages directly in a folder and its sub-folders, newest changed first, paged; without folderId, every page you can see.",
      scope: "pages:read",
      budget: "read",
      input: z.object({ folderId: folderIdSchema.optional(), limit: limitField, cursor: cursorField }),
      output: z.object({
        pages: z.array(pageResource),
        folders: z.array(folderResource).describe("on the first page only: the folder's sub-folders (up to 100)"),
        nextCursor: z.string().nullable(),
      }),
      annotations: { ...READ_ONLY, title: "List pages" },
      async run(args, caller) {
        const pages = await listPages(views, caller.principal, {
          parentId: args.folderId,
          cursor: args.cursor,
          limit: args.limit,
        });
        const folders =
          args.folderId === undefined || args.cursor !== undefined
            ? []
            : (await listFolders(views, caller.principal, { parentId: args.folderId, limit: 100 })).data;
        return { pages: pages.data, folders, nextCursor: pages.nextCursor };
      },
    }),
    defineTool({
      name: "list_folders",
      title: "List folders",
      description:
        "The folders you can see, newest changed first, paged; with parentId, only those directly inside it.",
      scope: "pages:read",
      budget: "read",
      input: z.object({ parentId: folderIdSchema.optional(), limit: limitField, cursor: cursorField }),
      output: z.object({ folders: z.array(folderResource), nextCursor: z.string().nullable() }),
      annotations: { ...READ_ONLY, title: "List folders" },
      async run(args, caller) {
        const listed = await listFolders(views, caller.principal, args);
        return { folders: listed.data, nextCursor: listed.nextCursor };
      },
    }),
    defineTool({
      name: "page_history",
      title: "A page's history",
      description:
        "A page's changes with who made them (and through which API token), newest first; each position is an instant read_page, diff_page and restore_page_version take.",
      scope: "pages:read",
      budget: "read",
      input: z.object({
        pageId: pageIdSchema,
        order: z.enum(["asc", "desc"]).default("desc"),
        limit: limitField,
        cursor: cursorField,
      }),
      output: z.object({
        changes: z.array(
          z.object({
            position: z.string(),
            type: z.string(),
            occurredAt: z.string(),
            actor: actorRefSchema,
            changes: changeSchema,
          }),
        ),
        nextCursor: z.string().nullable(),
      }),
      annotations: { ...READ_ONLY, title: "Page history" },
      async run(args, caller) {
        const page = await pageHistoryFor(views, caller.principal, args.pageId, {
          order: args.order,
          from: decodeCursor(args.cursor),
          limit: args.limit,
        });
        const changes = page.data.map(({ entry, actor, changes: change }) => ({
          position: String(entry.position),
          type: entry.type,
          occurredAt: entry.occurredAt,
          actor,
          changes: change,
        }));
        return { changes, nextCursor: page.next === null ? null : encodeCursor(page.next) };
      },
    }),
    defineTool({
      name: "diff_page",
      title: "Compare two versions of a page",
      description:
        "What changed in a page between two instants (positions from page_history or ISO-8601 times): a unified diff of its markdown, and its title and icon when they changed. `to` defaults to now.",
      scope: "pages:read",
      budget: "read",
      input: z.object({
        pageId: pageIdSchema,
        from: instantField("the earlier instant"),
        to: instantField("the later instant").optional(),
      }),
      output: z.object({
        fromPosition: z.string(),
        toPosition: z.string(),
        title: z.object({ from: z.string().nullable(), to: z.string().nullable() }).nullable(),
        icon: z.object({ from: z.string().nullable(), to: z.string().nullable() }).nullable(),
        hunks: z.array(diffHunkSchema),
        linesAdded: z.number().int(),
        linesRemoved: z.number().int(),
        unified: z.string(),
      }),
      annotations: { ...READ_ONLY, title: "Compare versions" },
      async run(args, caller) {
        const { pageId: _pageId, ...diff } = await pageDiffBetween(ports, caller.principal, args.pageId, {
          from: args.from,
          to: args.to,
        });
        return diff;
      },
      text: (result) => result.unified || "no change",
    }),
  ];
}
