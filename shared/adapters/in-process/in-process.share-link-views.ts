// Share-link views recorded in the process that holds the event store (all-in-one).
import type { EventStore } from "../../event-store/event-store.port.ts";
import type { ReadModels } from "../../read-store/read-store.port.ts";
import { recordShareLinkViews } from "../../share-links/record-share-link-views.ts";
import type { ShareLinkViewRecorder, ShareLinkViewReport } from "../../share-links/share-link-views.port.ts";

export class InProcessShareLinkViews implements ShareLinkViewRecorder {
  constructor(
    private readonly ports: {
      readonly eventStore: EventStore;
      readonly views: Pick<ReadModels, "shareLinks">;
      readonly clock: () => Date;
    },
  ) {}

  recordViews(reports: readonly ShareLinkViewReport[], correlationId: string): Promise<void> {
    return recordShareLinkViews(this.ports, reports, correlationId);
  }
}
