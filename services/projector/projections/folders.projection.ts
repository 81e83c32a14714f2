// FolderCreated into the folders read model, with its ancestors and path computed once.
import type { StoredEvent } from "../../../shared/events.ts";
import type { FolderEvent } from "../../../shared/folders/folder.decider.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

export async function projectFolder<Tx>({ event, metadata, position }: StoredEvent<FolderEvent>, writers: ProjectionWriters<Tx>, tx: Tx): Promise<void> {
  const { folderId, ownerId, parentId, name, icon } = event.data;
  const parent = parentId ? await writers.folders.get(tx, parentId) : null;
  await writers.folders.put(tx, {
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
