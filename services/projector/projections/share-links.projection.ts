// ShareLinkCreated, ShareLinkChanged, ShareLinkRevoked and ShareLinkViewed into the share-links read model.
import type { StoredEvent } from "../../../shared/events.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";
import type { ShareLinkEvent } from "../../../shared/share-links/share-link.decider.ts";

export async function projectShareLink<Tx>(
  { event, metadata, position }: StoredEvent<ShareLinkEvent>,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  switch (event.type) {
    case "ShareLinkCreated": {
      const { linkId, entityType, entityId, createdBy, secretHash, expiresAt, passwordHash, allowIndexing } =
        event.data;
      return writers.shareLinks.put(tx, {
        id: linkId,
        entityType,
        entityId,
        createdBy,
        createdAt: metadata.occurredAt,
        position,
        secretHash,
        expiresAt,
        passwordHash,
        allowIndexing,
        revokedAt: null,
        views: 0,
        lastViewedAt: null,
      });
    }
    case "ShareLinkChanged": {
      const { linkId, expiresAt, passwordHash, allowIndexing } = event.data;
      return writers.shareLinks.change(tx, linkId, { expiresAt, passwordHash, allowIndexing });
    }
    case "ShareLinkRevoked":
      return writers.shareLinks.revoke(tx, event.data.linkId, metadata.occurredAt);
    case "ShareLinkViewed":
      return writers.shareLinks.addViews(tx, event.data.linkId, event.data.views, event.data.lastViewedAt);
  }
}
