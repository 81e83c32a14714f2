// Page events into the page listing and content read models: a page made (or back from the trash) is its record
// as `pageRecord` folds it, placed in its folder; a move takes the new folder's ancestors and path.
import type { StoredEvent } from "../../../shared/events.ts";
import { placedIn } from "../../../shared/folders/folder-place.ts";
import type { PageEvent } from "../../../shared/pages/page.decider.ts";
import { pageRecord } from "../../../shared/pages/page.record.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

export async function projectPage<Tx>(
  stored: StoredEvent<PageEvent>,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  const { event, metadata, position, revision } = stored;
  const changed = { updatedAt: metadata.occurredAt, updatedPosition: position, revision };
  switch (event.type) {
    // Back from the trash: rebuilt as on creation, where the page now returns to.
    case "PageCreated":
    case "PageUndeleted": {
      const page = pageRecord.evolve(null, stored);
      if (!page) return;
      const parent = page.parentId ? await writers.folders.get(tx, page.parentId) : null;
      return writers.pages.create(tx, { ...page, ...placedIn(parent) }, event.data.markdown);
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
    case "PagePurged":
      return; // the purge projection takes every row of it out
    case "PageMoved": {
      const parent = event.data.parentId ? await writers.folders.get(tx, event.data.parentId) : null;
      const place = { parentId: event.data.parentId, ...placedIn(parent) };
      return writers.pages.move(tx, event.data.pageId, place, changed);
    }
  }
}
