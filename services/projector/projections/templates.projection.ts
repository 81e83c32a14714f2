// Templates: a page marked as one gets a row (with its owner, for visibility, and the position it was marked at);
// unmarked or purged, the row goes. A template in the trash is hidden by the listing (the page is not live).
import type { StoredEvent } from "../../../shared/events.ts";
import type { TemplateEvent } from "../../../shared/templates/template.decider.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

export async function projectTemplate<Tx>(
  { event, position }: StoredEvent<TemplateEvent>,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  const { pageId } = event.data;
  if (event.type === "PageUnmarkedTemplate") return writers.templates.remove(tx, pageId);
  const ownerId = await writers.pages.ownerOf(tx, pageId);
  if (ownerId === null) return;
  return writers.templates.put(tx, { pageId, ownerId, position });
}
