// Appending or prepending to a page's markdown without reading it first: decided on the page's stream at its
// expected revision, so each addition lands on the latest content; a lost race is decided again.
import { pageAccess } from "../access/authorize.ts";
import { deciderCommandHandler } from "../commands/decider-command-handler.ts";
import type { Actor } from "../commands/guarded-command.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import type { PageId } from "../kernel/ids.ts";
import { revisionFromIfMatch } from "./page-document.ts";
import { pageDecider, pageEventSchemas, pageStream } from "./page.decider.ts";

/**
 * Additions are meant to be sent by many writers at once (scripts and agents logging into one page): each lost
 * race lets another writer through, so the bound is as high as the number of writers a page is expected to
 * take at once, not the handful a human edit needs.
 */
const ADDITION_ATTEMPTS = 100;

const pageAdditions = deciderCommandHandler({
  decider: pageDecider,
  streamOf: (id: PageId) => pageStream(id),
  eventSchemas: pageEventSchemas,
  maxAttempts: ADDITION_ATTEMPTS,
});

export interface Addition {
  readonly pageId: PageId;
  readonly text: string;
  readonly at: "end" | "start";
  /** The If-Match header when sent: the addition then applies only to that revision. */
  readonly ifMatch: string | undefined;
  readonly maxChars: number;
}

export async function addContent(
  ports: WritePorts,
  actor: Actor,
  addition: Addition,
): Promise<{ position: number | null }> {
  const { page } = await pageAccess("edit")(ports.views, actor.principal, addition.pageId);
  const sent = addition.ifMatch !== undefined && addition.ifMatch.trim() !== "";
  const ifMatchRevision = sent ? revisionFromIfMatch(addition.ifMatch, page) : null;
  const { pageId, text, at, maxChars } = addition;
  return pageAdditions.handle(
    ports.eventStore,
    pageId,
    { type: "AddContent", pageId, text, at, ifMatchRevision, maxChars },
    actor.context,
  );
}
