// The people directory's grant contacts: a grant links its grantee with whoever granted it and with the entity's
// owner (both of whom see the grantee's address in the entity's share listing; the grantee sees only their
// names). Revoking the grant unlinks them. Workspace members are read from the access read model at query time.
import type { StoredEvent } from "../../../shared/events.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

export async function projectDirectory<Tx>(
  { event }: StoredEvent,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  switch (event.type) {
    case "AccessGranted": {
      const { entityType, entityId, userId, grantedBy } = event.data;
      const via = `${entityType}:${entityId}`;
      const ownerId =
        entityType === "page"
          ? await writers.pages.ownerOf(tx, entityId)
          : ((await writers.folders.get(tx, entityId))?.ownerId ?? null);
      for (const sharer of new Set([grantedBy, ...(ownerId === null ? [] : [ownerId])])) {
        await writers.directory.addContact(tx, { viewerId: sharer, personId: userId, via, showsAddress: true });
        await writers.directory.addContact(tx, { viewerId: userId, personId: sharer, via, showsAddress: false });
      }
      return;
    }
    case "AccessRevoked":
      return writers.directory.removeGrantContacts(
        tx,
        `${event.data.entityType}:${event.data.entityId}`,
        event.data.userId,
      );
    default:
      return;
  }
}
