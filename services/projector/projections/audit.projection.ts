// The audit trail: each event audit-of.ts classifies becomes one entry in its workspace's trail, naming the actor
// and the API token or app it acted through. Run before the purge projection, so a purged page's owner is still
// found. An entry whose workspace cannot be found is filed under the actor's own.
import { auditOf, type AuditPlace } from "../../../shared/audit/audit-of.ts";
import type { StoredEvent } from "../../../shared/events.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

async function workspaceOf<Tx>(place: AuditPlace, writers: ProjectionWriters<Tx>, tx: Tx): Promise<string | null> {
  if ("workspace" in place) return place.workspace;
  if ("page" in place) return writers.pages.ownerOf(tx, place.page);
  if ("folder" in place) return (await writers.folders.get(tx, place.folder))?.ownerId ?? null;
  if ("thread" in place) {
    const access = await writers.history.accessOf(tx, place.thread);
    if (access === null) return null;
    return access.kind === "page"
      ? writers.pages.ownerOf(tx, access.id)
      : ((await writers.folders.get(tx, access.id))?.ownerId ?? null);
  }
  if ("recorded" in place) return writers.audit.workspaceOf(tx, place.recorded.type, place.recorded.id);
  return null;
}

/** Whether the credential in the metadata is an app's authorization rather than an API token. */
async function credentialOf<Tx>(
  id: string | null | undefined,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<{ tokenId: string | null; appId: string | null }> {
  if (!id) return { tokenId: null, appId: null };
  const app = (await writers.audit.workspaceOf(tx, "app", id)) !== null;
  return app ? { tokenId: null, appId: id } : { tokenId: id, appId: null };
}

export async function projectAudit<Tx>(stored: StoredEvent, writers: ProjectionWriters<Tx>, tx: Tx): Promise<void> {
  const { event } = stored;
  // A purged item is as an id never seen, here as in every read model: its entries go with it.
  if (event.type === "PagePurged") return writers.audit.forget(tx, "page", event.data.pageId);
  if (event.type === "FolderPurged") return writers.audit.forget(tx, "folder", event.data.folderId);
  const fact = auditOf(stored.event);
  if (fact === null) return;
  const { metadata } = stored;
  if (fact.kind === "write" && !metadata.tokenId) return;
  const workspaceId = (await workspaceOf(fact.place, writers, tx)) ?? metadata.actorId;
  await writers.audit.put(tx, {
    id: stored.id,
    workspaceId,
    kind: fact.kind,
    actorId: metadata.actorId,
    ...(await credentialOf(metadata.tokenId, writers, tx)),
    at: new Date(metadata.occurredAt).toISOString(),
    targetType: fact.target.type,
    targetId: fact.target.id,
    detail: fact.detail,
    position: stored.position,
  });
}
