// A page's listing record as the read models hold it, folded from its stream. Where it sits (ancestorIds,
// folderPath) depends on its folder's record: a creation, a return from the trash or a move leaves it at the root
// until the caller places it in its folder (`placedIn`).
import { placedIn } from "../folders/folder-place.ts";
import { recordFold } from "../read-store/record-fold.ts";
import type { PageRecord } from "./page-record.ts";

export const pageRecord = recordFold<PageRecord>()({
  canHandle: [
    "PageCreated",
    "PageUndeleted",
    "PageRenamed",
    "PageIconChanged",
    "PageContentReplaced",
    "PageRestored",
    "PageMoved",
    "PageDeleted",
    "PagePurged",
  ],
  evolve(page, { event, metadata, position, revision }) {
    const changed = { updatedAt: metadata.occurredAt, updatedPosition: position, revision };
    if (event.type === "PageCreated" || event.type === "PageUndeleted") {
      const { pageId, ownerId, parentId, title, icon } = event.data;
      const createdAt = event.type === "PageUndeleted" ? event.data.createdAt : metadata.occurredAt;
      return { id: pageId, ownerId, parentId, title, icon, ...placedIn(null), createdAt, ...changed };
    }
    if (!page) return null;
    switch (event.type) {
      case "PageRenamed":
        return { ...page, title: event.data.title, ...changed };
      case "PageIconChanged":
        return { ...page, icon: event.data.icon, ...changed };
      case "PageContentReplaced":
        return { ...page, ...changed };
      case "PageRestored":
        return { ...page, title: event.data.title, icon: event.data.icon, ...changed };
      case "PageMoved":
        return { ...page, parentId: event.data.parentId, ...placedIn(null), ...changed };
      case "PageDeleted":
      case "PagePurged":
        return null;
    }
  },
});
