// FolderCreated into the folders read model, with its ancestors and path computed once.
import type { StoredEvent } from "../../../shared/events.ts";
import type { FolderEvent } from "../../../shared/folders/folder.decider.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";

export async function projectFolder({ event, metadata, position }: StoredEvent<FolderEvent>, models: ReadModels): Promise<void> {
  const { folderId, ownerId, parentId, name, icon } = event.data;
  const parent = parentId ? await models.folders.get(parentId) : null;
  await models.folders.put({
    id: folderId,
    ownerId,
    parentId,
    name,
    icon,
    ancestorIds: parent ? [parent.id, ...parent.ancestorIds] : [],
    path: parent ? `${parent.path}/${name}` : name,
    createdAt: metadata.occurredAt,
    updatedAt: metadata.occurredAt,
    updatedPosition: position,
  });
}
