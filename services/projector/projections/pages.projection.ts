// Page events into the page listing and content read models.
import type { StoredEvent } from "../../../shared/events.ts";
import type { PageEvent } from "../../../shared/pages/page.decider.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";

export async function projectPage({ event, metadata, position, revision }: StoredEvent<PageEvent>, models: ReadModels): Promise<void> {
  const changed = { updatedAt: metadata.occurredAt, updatedPosition: position, revision };
  switch (event.type) {
    case "PageCreated": {
      const { pageId, ownerId, parentId, title, icon, markdown } = event.data;
      const parent = parentId ? await models.folders.get(parentId) : null;
      return models.pages.create(
        {
          id: pageId,
          ownerId,
          parentId,
          title,
          icon,
          ancestorIds: parent ? [parent.id, ...parent.ancestorIds] : [],
          folderPath: parent?.path ?? "",
          createdAt: metadata.occurredAt,
          ...changed,
        },
        markdown,
      );
    }
    case "PageRenamed":
      return models.pages.change(event.data.pageId, { ...changed, kind: "title", title: event.data.title });
    case "PageIconChanged":
      return models.pages.change(event.data.pageId, { ...changed, kind: "icon", icon: event.data.icon });
    case "PageContentReplaced":
      return models.pages.change(event.data.pageId, { ...changed, kind: "content", markdown: event.data.markdown });
    case "PageDeleted":
      return models.pages.remove(event.data.pageId);
  }
}
