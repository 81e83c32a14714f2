// The tools an agent needs around a page and its people (pages:read): the pages linking to a page, a page's
// attachments with their download links, and the people who share a workspace with the caller. Each calls the
// application function its GET route calls (backlinksOf, listAttachments) or the directory's
// (peopleSharingAWorkspaceWith), so what the caller cannot see is missing here as there.
import { z } from "zod";
import { attachmentResource } from "../../../shared/attachments/attachment.resource.ts";
import { listAttachments } from "../../../shared/attachments/list-attachments.ts";
import { pageIdSchema } from "../../../shared/kernel/ids.ts";
import { backlinksOf } from "../../../shared/links/backlinks.ts";
import { resolvedPageResource, toPageResource } from "../../../shared/pages/page.resource.ts";
import { decodeCursor } from "../../../shared/read-store/pagination.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import { peopleSharingAWorkspaceWith } from "../../../shared/users/people-directory.ts";
import { defineTool, READ_ONLY, type McpTool } from "../mcp-tool.ts";

const limitField = z.number().int().min(1).max(100).default(50).describe("how many items to answer at most");
const cursorField = z.string().min(1).max(200).optional().describe("nextCursor of the previous answer, to read on");
const personSchema = z.object({ id: z.string(), name: z.string(), email: z.string(), image: z.string().nullable() });

/** Download links are answered absolute, so an agent can fetch them with its token (Authorization: Bearer). */
export function directoryTools(ports: {
  readonly views: ReadModels;
  readonly publicBaseUrl: string | null;
}): McpTool[] {
  const { views } = ports;
  const absolute = (url: string) =>
    ports.publicBaseUrl && url.startsWith("/") ? `${ports.publicBaseUrl.replace(/\/+$/, "")}${url}` : url;
  return [
    defineTool({
      name: "page_backlinks",
      title: "Pages linking to a page",
      description:
        "The pages you can see whose markdown links to this page, newest link first, paged (GET /pages/{id}/backlinks).",
      scope: "pages:read",
      budget: "read",
      input: z.object({ pageId: pageIdSchema, limit: limitField, cursor: cursorField }),
      output: z.object({ pages: z.array(resolvedPageResource), nextCursor: z.string().nullable() }),
      annotations: { ...READ_ONLY, title: "Backlinks of a page" },
      async run(args, caller) {
        const { data, nextCursor } = await backlinksOf(views, caller.principal, args.pageId, {
          before: decodeCursor(args.cursor),
          limit: args.limit,
        });
        return {
          pages: data.map(({ page, permission }) => ({
            ...toPageResource(page, permission),
            folderPath: page.folderPath,
          })),
          nextCursor,
        };
      },
    }),
    defineTool({
      name: "list_attachments",
      title: "A page's attachments",
      description:
        "The files attached to a page, newest first, paged, each with its download link (fetch it with your token) and the markdown that embeds it (GET /pages/{id}/attachments).",
      scope: "pages:read",
      budget: "read",
      input: z.object({ pageId: pageIdSchema, limit: limitField, cursor: cursorField }),
      output: z.object({ attachments: z.array(attachmentResource), nextCursor: z.string().nullable() }),
      annotations: { ...READ_ONLY, title: "Attachments of a page" },
      async run(args, caller) {
        const { data, nextCursor } = await listAttachments(views, caller.principal, args.pageId, {
          cursor: args.cursor,
          limit: args.limit,
        });
        return {
          attachments: data.map((attachment) => ({ ...attachment, url: absolute(attachment.url) })),
          nextCursor,
        };
      },
    }),
    defineTool({
      name: "list_people",
      title: "People you work with",
      description:
        "The people who share a workspace with you (its owner and members), by name; with `query`, those whose name or address contains it. No one else can be found.",
      scope: "pages:read",
      budget: "read",
      input: z.object({
        query: z.string().trim().min(1).max(200).optional().describe("part of a name or an email address"),
      }),
      output: z.object({ people: z.array(personSchema) }),
      annotations: { ...READ_ONLY, title: "People directory" },
      async run(args, caller) {
        return { people: await peopleSharingAWorkspaceWith(views, caller.principal.user.id, args.query ?? null) };
      },
    }),
  ];
}
