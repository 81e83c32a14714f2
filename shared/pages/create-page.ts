// Creating a page (POST /pages and the MCP server's create_page): in the caller's workspace or a folder they may
// edit; with a templateId, from a template the caller can view (404 when they cannot, or when it is not a
// template), its placeholders filled, its title and icon used where the request gives none.
import { randomUUID } from "node:crypto";
import { ownerOfNewItem, visiblePage } from "../access/authorize.ts";
import type { Actor } from "../commands/guarded-command.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import { AppError } from "../errors/app-error.ts";
import { pageIdSchema, type FolderId, type PageId } from "../kernel/ids.ts";
import { fillTemplate, fillTemplateTitle } from "../templates/fill-template.ts";
import { unreachableMentions } from "../mentions/unreachable-mentions.ts";
import { MARKDOWN_MAX_CHARS } from "./page.fields.ts";
import { pageCommands } from "./page.commands.ts";

export interface NewPage {
  readonly title?: string | undefined;
  readonly markdown?: string | undefined;
  readonly parentId: FolderId | null;
  readonly icon?: string | null | undefined;
  readonly templateId?: PageId | undefined;
}

async function fromTemplate(
  ports: WritePorts,
  actor: Actor,
  templateId: PageId,
  page: NewPage,
): Promise<{ title: string; icon: string | null; markdown: string }> {
  // Access first, on the listing row: a template the caller cannot view costs what a missing one costs.
  await visiblePage(ports.views, actor.principal, templateId);
  const content = (await ports.views.templates.isTemplate(templateId))
    ? await ports.views.pages.getContent(templateId)
    : null;
  if (!content) throw new AppError("not_found", "template not found");
  const values = { now: actor.context.now, author: actor.principal.user.name };
  const title = page.title ?? fillTemplateTitle(content.page.title, values);
  if (title === "")
    throw new AppError("validation_failed", "title: the template's title is empty once filled; send a title");
  const markdown = fillTemplate(content.markdown, { ...values, title }).normalize("NFC");
  if (markdown.length > MARKDOWN_MAX_CHARS)
    throw new AppError(
      "validation_failed",
      `markdown: the filled template would be longer than ${MARKDOWN_MAX_CHARS} characters`,
    );
  return { title, icon: page.icon === undefined ? content.page.icon : page.icon, markdown };
}

/** The new page, where its events reached, and the mentions of its markdown that reach nobody. */
export async function createPage(
  ports: WritePorts,
  actor: Actor,
  page: NewPage,
): Promise<{ pageId: PageId; position: number | null; unreachableMentions: string[] }> {
  if (page.templateId !== undefined && page.markdown !== undefined)
    throw new AppError("validation_failed", "markdown: send markdown or templateId, not both");
  const ownerId = await ownerOfNewItem(ports.views, actor.principal, page.parentId);
  const fields =
    page.templateId === undefined
      ? { title: page.title, icon: page.icon ?? null, markdown: page.markdown ?? "" }
      : await fromTemplate(ports, actor, page.templateId, page);
  if (fields.title === undefined) throw new AppError("validation_failed", "title: required without templateId");
  const pageId = pageIdSchema.parse(randomUUID());
  const command = {
    type: "CreatePage" as const,
    pageId,
    ownerId,
    parentId: page.parentId,
    title: fields.title,
    icon: fields.icon,
    markdown: fields.markdown,
  };
  const { position } = await pageCommands.handle(ports.eventStore, pageId, command, actor.context, { newStream: true });
  const parent = page.parentId === null ? null : await ports.views.folders.get(page.parentId);
  const ancestorIds = parent === null ? [] : [parent.id, ...parent.ancestorIds];
  return {
    pageId,
    position,
    unreachableMentions: await unreachableMentions(ports.views, { id: pageId, ownerId, ancestorIds }, fields.markdown),
  };
}
