// Page commands: create, rename or re-icon, move, replace the content under If-Match, and soft-delete.
import { z } from "zod";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { locationOf } from "../../../shared/http/locations.ts";
import { folderIdSchema, pageIdSchema, type PageId } from "../../../shared/kernel/ids.ts";
import { editPage, movePage } from "../../../shared/pages/page.commands.ts";
import { revisionFromIfMatch, stripFrontmatter } from "../../../shared/pages/page-document.ts";
import { createdPageResource, pageResource, resolvedPageResource } from "../../../shared/pages/page.resource.ts";
import { createPage } from "../../../shared/pages/create-page.ts";
import { setTemplate } from "../../../shared/templates/template.commands.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import { writeResponses } from "../write-answer.ts";
import { answerWrites } from "../write-route.ts";
import { pageAnswer, pageDocumentAnswer } from "../answers/page.answer.ts";
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

  /** A content write's answer (its page's document), with the mentions of the text it sent that reach nobody as a header. */
  const contentAnswer = async (pageId: PageId, text: string) =>
    pageDocumentAnswer(pageId).withHeaders(
      unreachableMentionsHeader(await unreachableMentionsOn(ports.views, pageId, text)),
    );

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
          return {
            position,
            status: 201,
            location: locationOf.page(pageId),
            answer: pageAnswer(pageId, "record").map((page) => ({ ...page, unreachableMentions })),
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
        return { position, status: 200, answer: pageAnswer(pageId, "record") };
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
        return { position, status: 200, answer: pageAnswer(pageId, "placed") };
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
        return { position, status: 200, answer: await contentAnswer(pageId, markdown) };
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
        return { position, status: 200, answer: await contentAnswer(pageId, text) };
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
        return { position, status: 200, answer: pageDocumentAnswer(pageId) };
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
