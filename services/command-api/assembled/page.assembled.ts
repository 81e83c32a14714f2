// A page's record and document as the write side knows them: its decider state folded from its own stream, placed
// in the folder the read models hold. What a write answers (202) while the read models have not caught up with it.
import { effectivePermission } from "../../../shared/access/effective-permission.ts";
import { seenBy, type Seen } from "../../../shared/access/seen-by.ts";
import type { Principal } from "../../../shared/auth/principal.ts";
import type { EventStore } from "../../../shared/event-store/event-store.port.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { placedIn } from "../../../shared/folders/folder-place.ts";
import type { PageId } from "../../../shared/kernel/ids.ts";
import { etagOf, renderPageDocument } from "../../../shared/pages/page-document.ts";
import { pageCommands } from "../../../shared/pages/page.commands.ts";
import { toPageResource, type PageResource } from "../../../shared/pages/page.resource.ts";
import type { PageRecord } from "../../../shared/pages/page-record.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import type { Presented } from "../write-answer.ts";

interface AssembledPage {
  readonly shown: Seen<PageRecord>;
  readonly resource: PageResource;
  readonly markdown: string;
}

/**
 * The page after the write, from its stream: `now` is when the write was decided (its events' time). The folder
 * it is in, and the caller's grants, come from the read models, which hold them unless they were changed within
 * the same wait.
 */
async function assemblePage(
  ports: { eventStore: EventStore; views: ReadModels },
  principal: Principal,
  pageId: PageId,
  now: Date,
): Promise<AssembledPage> {
  const state = await pageCommands.load(ports.eventStore, pageId);
  if (state.status !== "live") throw new AppError("not_found", "page not found");
  const [before, parent, context] = await Promise.all([
    ports.views.pages.get(pageId),
    state.parentId === null ? null : ports.views.folders.get(state.parentId),
    ports.views.access.contextFor(principal.user.id),
  ]);
  const record: PageRecord = {
    id: pageId,
    ownerId: state.ownerId,
    parentId: state.parentId,
    title: state.title,
    icon: state.icon,
    ...placedIn(parent),
    createdAt: before?.createdAt ?? now.toISOString(),
    updatedAt: now.toISOString(),
    updatedPosition: before?.updatedPosition ?? 0,
    revision: state.revision,
  };
  // A write to a page needs edit on it: what the caller holds when their grants are not readable yet.
  const permission = effectivePermission(context, { kind: "page", ...record }) ?? "edit";
  const shown = seenBy(context, record);
  return { shown, resource: toPageResource(shown, permission), markdown: state.markdown };
}

/** What a page route answers as `assemble` while the read side is behind: the record, with its folder path, or the document. */
export const assembledPage = (
  ports: { eventStore: EventStore; views: ReadModels },
  principal: Principal,
  pageId: PageId,
  now: Date,
) => ({
  record: async (): Promise<Presented> => ({ body: (await assemblePage(ports, principal, pageId, now)).resource }),
  placed: async (): Promise<Presented> => {
    const { resource, shown } = await assemblePage(ports, principal, pageId, now);
    return { body: { ...resource, folderPath: shown.folderPath } };
  },
  document: async (): Promise<Presented> => {
    const { shown, markdown } = await assemblePage(ports, principal, pageId, now);
    return {
      body: renderPageDocument(shown, markdown),
      headers: { etag: etagOf(shown), "content-type": "text/markdown; charset=utf-8" },
    };
  },
});
