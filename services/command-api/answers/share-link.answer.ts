// A share link as a write answers it: from the read models once they show the write; meanwhile the link as the
// write side holds it (as created, or as a change left it). Its url, which carries the secret, is known to the
// creating write alone and answered by it only.
import type { ShareLinkId } from "../../../shared/kernel/ids.ts";
import { recordedShareLink } from "../../../shared/share-links/list-share-links.ts";
import type { ShareLinkResource } from "../../../shared/share-links/share-link.resource.ts";
import { answerOf, type Answer } from "./answer.ts";

export const shareLinkAnswer = (
  linkId: ShareLinkId,
  held: () => ShareLinkResource,
  url: string | null = null,
): Answer<ShareLinkResource> =>
  answerOf(
    async (ports) => ({ body: await recordedShareLink(ports.views, linkId, url) }),
    async () => ({ body: held() }),
  );
