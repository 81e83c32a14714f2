// Page events into the page listing and content read models: the page as `pageRecord` folds it from the record
// the batch holds, placed in its folder when it is made, back from the trash or moved, and stored with its
// content when the event carries it.
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
  const { event } = stored;
  // The purge projection takes every row of it out.
  if (event.type === "PagePurged") return;
  if (event.type === "PageDeleted") return writers.pages.remove(tx, event.data.pageId);
  // Back from the trash: rebuilt as on creation, where the page now returns to.
  const made = event.type === "PageCreated" || event.type === "PageUndeleted";
  const before = made ? null : await writers.pages.get(tx, event.data.pageId);
  if (!made && !before) return;
  const page = pageRecord.evolve(before, stored);
  if (!page) return;
  const moves = made || event.type === "PageMoved";
  const parent = moves && page.parentId ? await writers.folders.get(tx, page.parentId) : null;
  const placed = moves ? { ...page, ...placedIn(parent) } : page;
  return writers.pages.put(tx, placed, "markdown" in event.data ? event.data.markdown : undefined);
}
