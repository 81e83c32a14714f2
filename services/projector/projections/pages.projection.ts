// Page events into the page listing and content read models; a move takes the new folder's ancestors and path.
import type { StoredEvent } from "../../../shared/events.ts";
import { placedIn } from "../../../shared/folders/folder-place.ts";
import type { PageEvent } from "../../../shared/pages/page.decider.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

export async function projectPage<Tx>(
  { event, metadata, position, revision }: StoredEvent<PageEvent>,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  const changed = { updatedAt: metadata.occurredAt, updatedPosition: position, revision };
  switch (event.type) {
    case "PageCreated": {
      const { pageId, ownerId, parentId, title, icon, markdown } = event.data;
      const parent = parentId ? await writers.folders.get(tx, parentId) : null;
      return writers.pages.create(
        tx,
        {
          id: pageId,
          ownerId,
          parentId,
          title,
          icon,
          ...placedIn(parent),
          createdAt: metadata.occurredAt,
          ...changed,
        },
        markdown,
      );
    }
    case "PageRenamed":
      return writers.pages.change(tx, event.data.pageId, { ...changed, kind: "title", title: event.data.title });
    case "PageIconChanged":
      return writers.pages.change(tx, event.data.pageId, { ...changed, kind: "icon", icon: event.data.icon });
    case "PageContentReplaced":
      return writers.pages.change(tx, event.data.pageId, {
        ...changed,
        kind: "content",
        markdown: event.data.markdown,
      });
    case "PageDeleted":
      return writers.pages.remove(tx, event.data.pageId);
    case "PageRestored": {
      const { pageId, title, icon, markdown } = event.data;
      await writers.pages.change(tx, pageId, { ...changed, kind: "title", title });
      await writers.pages.change(tx, pageId, { ...changed, kind: "icon", icon });
      return writers.pages.change(tx, pageId, { ...changed, kind: "content", markdown });
    }
    case "PageUndeleted": {
      // Rebuilt as on creation, where the page now returns to.
      const { pageId, ownerId, parentId, title, icon, markdown, createdAt } = event.data;
      const parent = parentId ? await writers.folders.get(tx, parentId) : null;
      const place = { parentId, ...placedIn(parent) };
      return writers.pages.create(tx, { id: pageId, ownerId, title, icon, ...place, createdAt, ...changed }, markdown);
    }
    case "PagePurged":
      return; // the purge projection takes every row of it out
    case "PageMoved": {
      const parent = event.data.parentId ? await writers.folders.get(tx, event.data.parentId) : null;
      const place = { parentId: event.data.parentId, ...placedIn(parent) };
      return writers.pages.move(tx, event.data.pageId, place, changed);
    }
  }
}
