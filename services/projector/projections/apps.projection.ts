// AppAuthorized and AppRevoked into the apps read model.
import type { AppEvent } from "../../../shared/apps/app.decider.ts";
import type { StoredEvent } from "../../../shared/events.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";

type AppRecordEvent = Extract<AppEvent, { type: "AppAuthorized" | "AppRevoked" }>;

export async function projectApp<Tx>(
  { event, metadata }: StoredEvent<AppRecordEvent>,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  switch (event.type) {
    case "AppAuthorized": {
      const { appId, userId, clientId, clientName, clientUri, redirectHost, scopes } = event.data;
      return writers.apps.put(tx, {
        id: appId,
        userId,
        clientId,
        name: clientName,
        clientUri,
        redirectHost,
        scopes,
        createdAt: metadata.occurredAt,
        revokedAt: null,
      });
    }
    case "AppRevoked":
      return writers.apps.markRevoked(tx, event.data.appId, metadata.occurredAt);
  }
}
