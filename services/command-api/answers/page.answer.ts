// A page as a write answers it. Once the read models show the write: the page as the caller may see it there.
// Meanwhile: the page's stream folded with the read model's own record fold, placed in the folder the read models
// hold, and the caller's permission from their grants there.
import { effectivePermission } from "../../../shared/access/effective-permission.ts";
import { visiblePage } from "../../../shared/access/authorize.ts";
import { seenBy, type Seen } from "../../../shared/access/seen-by.ts";
import type { Principal } from "../../../shared/auth/principal.ts";
import { recordOfStream } from "../../../shared/commands/record-of-stream.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { placedIn } from "../../../shared/folders/folder-place.ts";
import type { PageId } from "../../../shared/kernel/ids.ts";
import type { Permission } from "../../../shared/kernel/permissions.ts";
import { etagOf, renderPageDocument } from "../../../shared/pages/page-document.ts";
import type { PageRecord } from "../../../shared/pages/page-record.ts";
import { pageCommands } from "../../../shared/pages/page.commands.ts";
import { pageStream } from "../../../shared/pages/page.decider.ts";
import { pageRecord } from "../../../shared/pages/page.record.ts";
import { toPageResource, type PageResource } from "../../../shared/pages/page.resource.ts";
import { answerOf, type Answer, type AnswerPorts, type Presented } from "./answer.ts";

interface SeenPage {
  readonly shown: Seen<PageRecord>;
  readonly permission: Permission;
}

type PlacedPage = PageResource & { readonly folderPath: Seen<PageRecord>["folderPath"] };

/**
 * The bodies a page answers in: its record, the record with its folder path (a move), and that with the ETag of
 * its version (what an MCP tool's next change of the page names).
 */
interface PageShapes {
  readonly record: PageResource;
  readonly placed: PlacedPage;
  readonly versioned: { readonly page: PlacedPage; readonly etag: string };
}

const placed = ({ shown, permission }: SeenPage): PlacedPage => ({
  ...toPageResource(shown, permission),
  folderPath: shown.folderPath,
});

const shapes: { readonly [S in keyof PageShapes]: (page: SeenPage) => PageShapes[S] } = {
  record: ({ shown, permission }) => toPageResource(shown, permission),
  placed,
  versioned: (page) => ({ page: placed(page), etag: etagOf(page.shown) }),
};

/**
 * The page after the write, folded from its stream. The folder it is in, and the caller's grants, come from the
 * read models, which hold them unless they were changed within the same wait.
 */
async function foldedPage(ports: AnswerPorts, principal: Principal, pageId: PageId): Promise<SeenPage> {
  const folded = await recordOfStream(ports.eventStore, pageStream(pageId), pageRecord);
  if (!folded) throw new AppError("not_found", "page not found");
  const [parent, context] = await Promise.all([
    folded.parentId === null ? null : ports.views.folders.get(folded.parentId),
    ports.views.access.contextFor(principal.user.id),
  ]);
  const record: PageRecord = { ...folded, ...placedIn(parent) };
  // A write to a page needs edit on it: what the caller holds when their grants are not readable yet.
  const permission = effectivePermission(context, { kind: "page", ...record }) ?? "edit";
  return { shown: seenBy(context, record), permission };
}

/** The page a write answers, in one of its shapes. */
export function pageAnswer<S extends keyof PageShapes>(pageId: PageId, shape: S): Answer<PageShapes[S]> {
  const body = shapes[shape];
  return answerOf(
    async (ports, principal) => ({ body: body(await visiblePage(ports.views, principal, pageId)) }),
    async (ports, principal) => ({ body: body(await foldedPage(ports, principal, pageId)) }),
  );
}

const documentOf = (shown: Seen<PageRecord>, markdown: string): Presented<string> => ({
  body: renderPageDocument(shown, markdown),
  headers: { etag: etagOf(shown), "content-type": "text/markdown; charset=utf-8" },
});

/** The page's document (frontmatter and markdown) a content write answers, with its ETag. */
export const pageDocumentAnswer = (pageId: PageId): Answer<string> =>
  answerOf(
    async (ports, principal) => {
      const content = await ports.views.pages.getContent(pageId);
      if (!content) throw new AppError("not_found", "page not found");
      return documentOf(seenBy(await ports.views.access.contextFor(principal.user.id), content.page), content.markdown);
    },
    async (ports, principal) => {
      const [{ shown }, state] = await Promise.all([
        foldedPage(ports, principal, pageId),
        pageCommands.load(ports.eventStore, pageId),
      ]);
      return documentOf(shown, state.status === "live" ? state.markdown : "");
    },
  );
