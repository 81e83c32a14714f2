// POST /pages/{pageId}/duplicate: a copy of a page the caller can view, created where they may create pages.
import { z } from "zod";
import type { App } from "../../../shared/http/create-app.ts";
import { locationOf } from "../../../shared/http/locations.ts";
import { folderIdSchema, pageIdSchema } from "../../../shared/kernel/ids.ts";
import { duplicatePage } from "../../../shared/pages/duplicate-page.ts";
import { pageResource } from "../../../shared/pages/page.resource.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import { pageAnswer } from "../answers/page.answer.ts";
import { writeResponses } from "../write-answer.ts";
import { answerWrites } from "../write-route.ts";
import { titleField } from "../../../shared/pages/page.fields.ts";

const duplicateBody = z
  .strictObject({ title: titleField.optional(), parentId: folderIdSchema.nullable().optional() })
  .default({});

export function pageDuplicateRoutes(app: App, ports: CommandApiPorts): void {
  const answer = answerWrites(ports);
  app.post(
    "/pages/:pageId/duplicate",
    {
      config: { access: { scope: "pages:write" } },
      schema: {
        params: z.object({ pageId: pageIdSchema }),
        body: duplicateBody,
        response: writeResponses({ 201: pageResource }),
      },
    },
    async (request, reply) =>
      answer(request, reply, ({ actor, once, settle }) =>
        once(async () => {
          const { title, parentId } = request.body;
          // The copies' bytes count against the quota until the answer: settled inside the duplication.
          return duplicatePage(
            ports,
            actor,
            { sourceId: request.params.pageId, title, parentId },
            ({ pageId, position }) =>
              settle({
                position,
                status: 201,
                location: locationOf.page(pageId),
                answer: pageAnswer(pageId, "record"),
              }),
          );
        }),
      ),
  );
}
