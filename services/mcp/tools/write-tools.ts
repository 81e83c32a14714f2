// The writing tools (pages:write): create, add to, edit, replace, rename, move, delete and restore pages, create
// folders, and bring items back from the trash. Each calls the command function its HTTP route calls (access
// guard, decider, expected revision), so every change is an event whose actor is the caller and whose token is
// named in its metadata; creating tools take an optional idempotencyKey.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { ownerOfNewItem } from "../../../shared/access/authorize.ts";
import type { Actor } from "../../../shared/commands/guarded-command.ts";
import { folderCommands } from "../../../shared/folders/folder.commands.ts";
import { folderNameField } from "../../../shared/folders/folder.fields.ts";
import { folderResource } from "../../../shared/folders/folder.resource.ts";
import { instantSchema } from "../../../shared/history/instant.ts";
import { folderIdSchema, pageIdSchema, type PageId } from "../../../shared/kernel/ids.ts";
import { iconField } from "../../../shared/kernel/text-fields.ts";
import { addContent } from "../../../shared/pages/add-content.ts";
import { createPage } from "../../../shared/pages/create-page.ts";
import { editContent } from "../../../shared/pages/edit-content.ts";
import { revisionFromIfMatch } from "../../../shared/pages/page-document.ts";
import { editPage, movePage } from "../../../shared/pages/page.commands.ts";
import { MARKDOWN_MAX_CHARS, markdownField, titleField } from "../../../shared/pages/page.fields.ts";
import { pageResource, resolvedPageResource } from "../../../shared/pages/page.resource.ts";
import { restorePage } from "../../../shared/pages/restore-page.ts";
import { unreachableMentionsField } from "../../../shared/mentions/mentions.resource.ts";
import { unreachableMentionsOn } from "../../../shared/mentions/unreachable-mentions.ts";
import { restoreFromTrash } from "../../../shared/trash/restore-from-trash.ts";
import { value } from "../../command-api/answers/answer.ts";
import { folderAnswer } from "../../command-api/answers/folder.answer.ts";
import { pageAnswer } from "../../command-api/answers/page.answer.ts";
import type { CommandApiPorts } from "../../command-api/command-api-ports.ts";
import { ADDITIVE, defineTool, DESTRUCTIVE, IDEMPOTENT_CHANGE, type McpTool } from "../mcp-tool.ts";
import { toolWrites, writeOutput } from "../write-outcome.ts";

const idempotencyKeyField = z
  .string()
  .min(1)
  .max(255)
  .optional()
  .describe(
    "a key of your choosing: the same call with the same key within 24 hours is made once, and answers the first result again",
  );
const etagField = z.string().min(1).max(200).describe("the ETag read_page answered for the version you changed");

const pageOutput = writeOutput({
  page: resolvedPageResource,
  etag: z.string(),
  unreachableMentions: unreachableMentionsField.describe(
    "on a write of markdown: the user ids it mentions who cannot view the page (or are unknown); those mentions notify no one",
  ),
});
const folderOutput = writeOutput({ folder: folderResource });
const deletedOutput = writeOutput({});
const restoredOutput = writeOutput({ page: pageResource.optional(), folder: folderResource.optional() });

export function writeTools(ports: CommandApiPorts): McpTool[] {
  const writes = toolWrites(ports);
  /**
   * The page as the caller now sees it, with the ETag of the version the change made; `text`: the markdown the
   * change wrote, whose unreachable mentions the result names.
   */
  const pageChange = async (actor: Actor, pageId: PageId, position: number | null, text?: string) => {
    const settled = await writes.settle(actor, position, { id: pageId, answer: pageAnswer(pageId, "versioned") });
    const mentions =
      text === undefined ? {} : { unreachableMentions: await unreachableMentionsOn(ports.views, pageId, text) };
    return pageOutput.parse({ ...settled, ...mentions });
  };

  return [
    defineTool({
      name: "create_page",
      title: "Create a page",
      description:
        "A new page with a title and markdown, at the root of your workspace or in a folder you may edit; or, with templateId, from a template you can view ({{title}}, {{date}} and {{author}} filled; its title and icon unless given).",
      scope: "pages:write",
      budget: "write",
      input: z.object({
        title: titleField.optional().describe("required without templateId"),
        markdown: markdownField.optional().describe("not with templateId"),
        folderId: folderIdSchema.nullable().default(null),
        icon: iconField.nullable().optional(),
        templateId: pageIdSchema.optional().describe("a template from list_templates"),
        idempotencyKey: idempotencyKeyField,
      }),
      output: pageOutput,
      annotations: { ...ADDITIVE, title: "Create a page" },
      async run(args, caller) {
        const actor = caller.actor();
        const { idempotencyKey, ...fields } = args;
        return writes.once(
          actor,
          { tool: "create_page", key: idempotencyKey, args: fields, output: pageOutput },
          async () => {
            const created = await createPage(ports, actor, { ...fields, parentId: fields.folderId });
            const { pageId, position, unreachableMentions } = created;
            const answer = pageAnswer(pageId, "versioned");
            const settled = await writes.settle(actor, position, { id: pageId, answer });
            return { ...settled, unreachableMentions };
          },
        );
      },
    }),
    defineTool({
      name: "append_to_page",
      title: "Add text to a page",
      description:
        'Adds markdown at the end (or, with position "start", at the beginning) of a page as it is when the change is made; with etag, only if the page is still that version.',
      scope: "pages:write",
      budget: "write",
      input: z.object({
        pageId: pageIdSchema,
        text: markdownField,
        position: z.enum(["end", "start"]).default("end"),
        etag: etagField.optional(),
      }),
      output: pageOutput,
      annotations: { ...ADDITIVE, title: "Add to a page" },
      async run(args, caller) {
        const actor = caller.actor();
        const { position } = await addContent(ports, actor, {
          pageId: args.pageId,
          text: args.text,
          at: args.position,
          ifMatch: args.etag,
          maxChars: MARKDOWN_MAX_CHARS,
        });
        return pageChange(actor, args.pageId, position, args.text);
      },
    }),
    defineTool({
      name: "edit_page",
      title: "Edit exact passages of a page",
      description:
        "Replaces exact passages of a page's markdown. Each oldText must occur exactly once (quote enough of the text around it); edits apply in order, all or none, and only to the version the etag names. Read the page again when the etag is refused.",
      scope: "pages:write",
      budget: "write",
      input: z.object({
        pageId: pageIdSchema,
        etag: etagField,
        edits: z
          .array(z.object({ oldText: z.string().min(1).max(MARKDOWN_MAX_CHARS), newText: markdownField }))
          .min(1)
          .max(100),
      }),
      output: pageOutput,
      annotations: { ...ADDITIVE, title: "Edit a page" },
      async run(args, caller) {
        const actor = caller.actor();
        const { position } = await editContent(ports, actor, {
          pageId: args.pageId,
          edits: args.edits,
          etag: args.etag,
          maxChars: MARKDOWN_MAX_CHARS,
        });
        const written = args.edits.map((edit) => edit.newText).join("\n");
        return pageChange(actor, args.pageId, position, written);
      },
    }),
    defineTool({
      name: "replace_page_content",
      title: "Replace a page's markdown",
      description: "Replaces the whole markdown of a page, if it is still the version the etag names.",
      scope: "pages:write",
      budget: "write",
      input: z.object({ pageId: pageIdSchema, etag: etagField, markdown: markdownField }),
      output: pageOutput,
      annotations: { ...IDEMPOTENT_CHANGE, title: "Replace a page's content" },
      async run(args, caller) {
        const actor = caller.actor();
        const { pageId, markdown, etag } = args;
        const { position } = await editPage.run(ports, actor, pageId, ({ page }) => ({
          type: "ReplaceContent",
          pageId,
          markdown,
          ifMatchRevision: revisionFromIfMatch(etag, page),
        }));
        return pageChange(actor, pageId, position, markdown);
      },
    }),
    defineTool({
      name: "rename_page",
      title: "Rename a page",
      description: "Changes a page's title and/or icon.",
      scope: "pages:write",
      budget: "write",
      input: z.object({ pageId: pageIdSchema, title: titleField.optional(), icon: iconField.nullable().optional() }),
      output: pageOutput,
      annotations: { ...IDEMPOTENT_CHANGE, title: "Rename a page" },
      async run(args, caller) {
        const actor = caller.actor();
        const { pageId, title, icon } = args;
        const { position } = await editPage.run(ports, actor, pageId, () => ({
          type: "UpdatePage",
          pageId,
          title,
          icon,
        }));
        return pageChange(actor, pageId, position);
      },
    }),
    defineTool({
      name: "move_page",
      title: "Move a page",
      description: "Moves a page into a folder of its workspace, or to the workspace's root (folderId null).",
      scope: "pages:write",
      budget: "write",
      input: z.object({ pageId: pageIdSchema, folderId: folderIdSchema.nullable() }),
      output: pageOutput,
      annotations: { ...IDEMPOTENT_CHANGE, title: "Move a page" },
      async run(args, caller) {
        const actor = caller.actor();
        const { position } = await movePage(ports, actor, args.pageId, args.folderId);
        return pageChange(actor, args.pageId, position);
      },
    }),
    defineTool({
      name: "create_folder",
      title: "Create a folder",
      description: "A new folder at the root of your workspace or inside a folder you may edit.",
      scope: "pages:write",
      budget: "write",
      input: z.object({
        name: folderNameField,
        parentId: folderIdSchema.nullable().default(null),
        icon: iconField.nullable().default(null),
        idempotencyKey: idempotencyKeyField,
      }),
      output: folderOutput,
      annotations: { ...ADDITIVE, title: "Create a folder" },
      async run(args, caller) {
        const actor = caller.actor();
        const { idempotencyKey, ...fields } = args;
        return writes.once(
          actor,
          { tool: "create_folder", key: idempotencyKey, args: fields, output: folderOutput },
          async () => {
            const ownerId = await ownerOfNewItem(ports.views, actor.principal, fields.parentId);
            const folderId = folderIdSchema.parse(randomUUID());
            const command = {
              type: "CreateFolder" as const,
              folderId,
              ownerId,
              parentId: fields.parentId,
              name: fields.name,
              icon: fields.icon,
            };
            const { position } = await folderCommands.handle(ports.eventStore, folderId, command, actor.context);
            const answer = folderAnswer(folderId, fields.parentId).map((folder) => ({ folder }));
            return writes.settle(actor, position, { id: folderId, answer });
          },
        );
      },
    }),
    defineTool({
      name: "restore_page_version",
      title: "Restore an earlier version of a page",
      description:
        "Makes a page's title, icon and markdown those it had at an instant (a position from page_history or an ISO-8601 time), as a new change: nothing is lost, and the restore can itself be undone.",
      scope: "pages:write",
      budget: "write",
      input: z.object({
        pageId: pageIdSchema,
        at: z.string().describe("a position from page_history, or an ISO-8601 time with an offset").pipe(instantSchema),
        etag: etagField,
      }),
      output: pageOutput,
      annotations: { ...IDEMPOTENT_CHANGE, title: "Restore a version" },
      async run(args, caller) {
        const actor = caller.actor();
        const { position } = await restorePage(ports, actor, { pageId: args.pageId, at: args.at, ifMatch: args.etag });
        return pageChange(actor, args.pageId, position);
      },
    }),
    defineTool({
      name: "delete_page",
      title: "Move a page to the trash",
      description: "Deletes a page to the trash, from which restore_from_trash brings it back until it is purged.",
      scope: "pages:write",
      budget: "write",
      input: z.object({ pageId: pageIdSchema }),
      output: deletedOutput,
      annotations: { ...DESTRUCTIVE, title: "Delete a page" },
      async run(args, caller) {
        const actor = caller.actor();
        const { pageId } = args;
        const { position } = await editPage.run(ports, actor, pageId, () => ({ type: "DeletePage", pageId }));
        return deletedOutput.parse(await writes.settle(actor, position, { id: pageId, answer: value({}) }));
      },
    }),
    defineTool({
      name: "restore_from_trash",
      title: "Bring a page or folder back from the trash",
      description:
        "Restores a deleted page or folder where it was (or at its owner's root); a folder brings back what was deleted with it.",
      scope: "pages:write",
      budget: "write",
      input: z.object({ type: z.enum(["page", "folder"]), id: z.uuid() }),
      output: restoredOutput,
      annotations: { ...IDEMPOTENT_CHANGE, title: "Restore from the trash" },
      async run(args, caller) {
        const actor = caller.actor();
        const { type, id } = args;
        const { position } = await restoreFromTrash(ports, actor, type, id);
        const answer =
          type === "folder"
            ? folderAnswer(folderIdSchema.parse(id)).map((folder) => ({ folder }))
            : pageAnswer(pageIdSchema.parse(id), "record").map((page) => ({ page }));
        return restoredOutput.parse(await writes.settle(actor, position, { id, answer }));
      },
    }),
  ];
}
