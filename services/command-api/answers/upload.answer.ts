// An uploaded image or attachment as its upload answers it: from the read models once they show it (on the page
// it was uploaded to); meanwhile the record as the upload made it.
import { toAttachmentResource, type AttachmentResource } from "../../../shared/attachments/attachment.resource.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { toImageResource, type ImageResource } from "../../../shared/images/image.resource.ts";
import type { PageId } from "../../../shared/kernel/ids.ts";
import { answerOf, type Answer } from "./answer.ts";

export const imageAnswer = (pageId: PageId, created: ImageResource): Answer<ImageResource> =>
  answerOf(
    async (ports) => {
      const image = await ports.views.images.get(created.id);
      if (!image || image.pageId !== pageId) throw new AppError("internal", "image was not recorded");
      return { body: toImageResource(image) };
    },
    async () => ({ body: created }),
  );

export const attachmentAnswer = (pageId: PageId, created: AttachmentResource): Answer<AttachmentResource> =>
  answerOf(
    async (ports) => {
      const attachment = await ports.views.attachments.get(created.id);
      if (!attachment || attachment.pageId !== pageId) throw new AppError("internal", "attachment was not recorded");
      return { body: toAttachmentResource(attachment) };
    },
    async () => ({ body: created }),
  );
