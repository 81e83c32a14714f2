// Page commands: create, rename or re-icon, move, replace the content under If-Match, and soft-delete.
import { z } from "zod";
import { visiblePage } from "../../../shared/access/authorize.ts";
import { seenBy } from "../../../shared/access/seen-by.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { locationOf } from "../../../shared/http/locations.ts";
import { folderIdSchema, pageIdSchema, type PageId } from "../../../shared/kernel/ids.ts";
import { editPage, movePage } from "../../../shared/pages/page.commands.ts";
import {
  etagOf,
  renderPageDocument,
  revisionFromIfMatch,
  stripFrontmatter,
} from "../../../shared/pages/page-document.ts";
import {
  createdPageResource,
  pageResource,
  resolvedPageResource,
  toPageResource,
} from "../../../shared/pages/page.resource.ts";
import { createPage } from "../../../shared/pages/create-page.ts";
import { setTemplate } from "../../../shared/templates/template.commands.ts";
import type { Principal } from "../../../shared/auth/principal.ts";
import type { Actor } from "../../../shared/commands/guarded-command.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import { writeResponses, type Presented } from "../write-answer.ts";
import { answerWrites } from "../write-route.ts";
import { foldedPageAnswer } from "../folded-answers.ts";
import { instantSchema } from "../../../shared/history/instant.ts";
import { restorePage } from "../../../shared/pages/restore-page.ts";
import { addContent } from "../../../shared/pages/add-content.ts";
import { iconField } from "../../../shared/kernel/text-fields.ts";
import { MARKDOWN_MAX_CHARS, markdownField, titleField } from "../../../shared/pages/page.fields.ts";
import { PAGE_BODY_LIMIT_BYTES } from "./fields.ts";
import { unreachableMentionsHeader, unreachableMentionsOn } from "../../../shared/mentions/unreachable-mentions.ts";

const createPageBody = z
  .object({
    title: titleField.optional(),
    markdown: markdownField.optional(),
    parentId: folderIdSchema.nullable().default(null),
    icon: iconField.nullable().optional(),
    templateId: pageIdSchema.optional().meta({
      description:
        "Make the page from this template: its markdown with {{title}}, {{date}} and {{author}} filled, and its title and icon unless given",
    }),
  })
  .refine((body) => body.title !== undefined || body.templateId !== undefined, {
    message: "title: required without templateId",
    path: ["title"],
  })
  .refine((body) => body.markdown === undefined || body.templateId === undefined, {
    message: "send markdown or templateId, not both",
    path: ["markdown"],
  });

const updatePageBody = z
  .strictObject({
    title: titleField.optional(),
    icon: iconField.nullable().optional(),
    isTemplate: z.boolean().optional(),
  })
  .refine(
    (body) => body.title !== undefined || body.icon !== undefined || body.isTemplate !== undefined,
    "send title, icon and/or isTemplate",
  );

const pageParams = z.object({ pageId: pageIdSchema });
const moveBody = z.strictObject({ parentId: folderIdSchema.nullable() });
/** Checked by the handler with markdownField, after the frontmatter of a text body is stripped. */
const contentBody = z.union([z.string(), z.object({ markdown: z.string() })]);
/** Exactly one of the two: text to add at the end, or at the start. */
const additionBody = z.union([z.strictObject({ append: markdownField }), z.strictObject({ prepend: markdownField })]);
const write = { access: { scope: "pages:write" as const } };

export function pageCommandRoutes(app: App, ports: CommandApiPorts): void {
  const answer = answerWrites(ports);
  const presentPage = (principal: Principal, pageId: PageId) => async () => {
    const { shown, permission } = await visiblePage(ports.views, principal, pageId);
    return { body: toPageResource(shown, permission) };
  };

  const presentContent = (principal: Principal, pageId: PageId) => async () => {
    const content = await ports.views.pages.getContent(pageId);
    if (!content) throw new AppError("not_found", "page not found");
    const shown = seenBy(await ports.views.access.contextFor(principal.user.id), content.page);
    const headers = { etag: etagOf(shown), "content-type": "text/markdown; charset=utf-8" };
    return { body: renderPageDocument(shown, content.markdown), headers };
  };

  /** A content write's answer (its page's markdown), with the mentions of the text it sent that reach nobody as a header. */
  const contentAnswer = async (actor: Actor, pageId: PageId, text: string) => {
    const header = unreachableMentionsHeader(await unreachableMentionsOn(ports.views, pageId, text));
    const withHeader = (presented: () => Promise<Presented>) => async (): Promise<Presented> => {
      const { body, headers } = await presented();
      return { body, headers: { ...headers, ...header } };
    };
    return {
      present: withHeader(presentContent(actor.principal, pageId)),
      assemble: withHeader(foldedPageAnswer(ports, actor.principal, pageId).document),
    };
  };

  app.post(
    "/pages",
    {
      bodyLimit: PAGE_BODY_LIMIT_BYTES,
      config: write,
      schema: { body: createPageBody, response: writeResponses({ 201: createdPageResource }) },
    },
    async (request, reply) =>
      answer(request, reply, ({ actor, once }) =>
        once(async () => {
          const { pageId, position, unreachableMentions } = await createPage(ports, actor, request.body);
          const withMentions = (presented: () => Promise<Presented>) => async (): Promise<Presented> => {
            const { body } = await presented();
            return { body: { ...pageResource.parse(body), unreachableMentions } };
          };
          const assemble = withMentions(foldedPageAnswer(ports, actor.principal, pageId).record);
          return {
            position,
            status: 201,
            location: locationOf.page(pageId),
            present: withMentions(presentPage(actor.principal, pageId)),
            assemble,
          };
        }),
      ),
  );

  app.patch(
    "/pages/:pageId",
    {
      config: write,
      schema: { params: pageParams, body: updatePageBody, response: writeResponses({ 200: pageResource }) },
    },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) => {
        const { pageId } = request.params;
        const { title, icon, isTemplate } = request.body;
        const renamed =
          title === undefined && icon === undefined
            ? null
            : (await editPage.run(ports, actor, pageId, () => ({ type: "UpdatePage", pageId, title, icon }))).position;
        const marked =
          isTemplate === undefined
            ? null
            : (await setTemplate.run(ports, actor, pageId, () => ({ type: "SetTemplate", pageId, isTemplate })))
                .position;
        const position = renamed === null ? marked : marked === null ? renamed : Math.max(renamed, marked);
        return {
          position,
          status: 200,
          present: presentPage(actor.principal, pageId),
          assemble: foldedPageAnswer(ports, actor.principal, pageId).record,
        };
      }),
  );

  app.post(
    "/pages/:pageId/move",
    {
      config: write,
      schema: { params: pageParams, body: moveBody, response: writeResponses({ 200: resolvedPageResource }) },
    },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) => {
        const { pageId } = request.params;
        const { position } = await movePage(ports, actor, pageId, request.body.parentId);
        const present = async () => {
          const { shown, permission } = await visiblePage(ports.views, actor.principal, pageId);
          return { body: { ...toPageResource(shown, permission), folderPath: shown.folderPath } };
        };
        return {
          position,
          status: 200,
          present,
          assemble: foldedPageAnswer(ports, actor.principal, pageId).placed,
        };
      }),
  );

  app.put(
    "/pages/:pageId/content",
    {
      bodyLimit: PAGE_BODY_LIMIT_BYTES,
      config: { ...write, textBody: true },
      schema: { params: pageParams, body: contentBody, response: writeResponses({ 200: z.string() }) },
    },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) => {
        const { pageId } = request.params;
        // A string body is markdown only when sent as text: JSON must be an object, as on every other route.
        const asText = /^text\/(markdown|plain)\b/i.test(request.headers["content-type"] ?? "");
        if (typeof request.body === "string" && !asText)
          throw new AppError("validation_failed", 'body: a JSON body must be an object {"markdown": "..."}');
        const sent = typeof request.body === "string" ? stripFrontmatter(request.body) : request.body.markdown;
        const checked = markdownField.safeParse(sent);
        if (!checked.success) {
          const tooLong = sent.length > MARKDOWN_MAX_CHARS;
          throw new AppError(
            "validation_failed",
            `body.markdown: ${tooLong ? `longer than ${MARKDOWN_MAX_CHARS} characters` : checked.error.issues.map((issue) => issue.message).join("; ")}`,
          );
        }
        const markdown = checked.data;
        const ifMatch = request.headers["if-match"];
        const { position } = await editPage.run(ports, actor, pageId, ({ page }) => ({
          type: "ReplaceContent",
          pageId,
          markdown,
          ifMatchRevision: revisionFromIfMatch(ifMatch, page),
        }));
        return {
          position,
          status: 200,
          ...(await contentAnswer(actor, pageId, markdown)),
        };
      }),
  );

  app.patch(
    "/pages/:pageId/content",
    {
      bodyLimit: PAGE_BODY_LIMIT_BYTES,
      config: write,
      schema: { params: pageParams, body: additionBody, response: writeResponses({ 200: z.string() }) },
    },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) => {
        const { pageId } = request.params;
        const body = request.body;
        const [text, at] = "append" in body ? [body.append, "end" as const] : [body.prepend, "start" as const];
        const ifMatch = request.headers["if-match"];
        const { position } = await addContent(ports, actor, {
          pageId,
          text,
          at,
          ifMatch,
          maxChars: MARKDOWN_MAX_CHARS,
        });
        return {
          position,
          status: 200,
          ...(await contentAnswer(actor, pageId, text)),
        };
      }),
  );

  app.post(
    "/pages/:pageId/restore",
    {
      config: write,
      schema: {
        params: pageParams,
        body: z.strictObject({ at: instantSchema }),
        response: writeResponses({ 200: z.string() }),
      },
    },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) => {
        const { pageId } = request.params;
        const { position } = await restorePage(ports, actor, {
          pageId,
          at: request.body.at,
          ifMatch: request.headers["if-match"],
        });
        return {
          position,
          status: 200,
          present: presentContent(actor.principal, pageId),
          assemble: foldedPageAnswer(ports, actor.principal, pageId).document,
        };
      }),
  );

  app.delete(
    "/pages/:pageId",
    { config: write, schema: { params: pageParams, response: writeResponses({ 204: z.null() }) } },
    async (request, reply) =>
      answer(request, reply, async ({ actor }) => {
        const { pageId } = request.params;
        const { position } = await editPage.run(ports, actor, pageId, () => ({ type: "DeletePage", pageId }));
        return { position, status: 204 };
      }),
  );
}
