// The two ports application code that writes needs: the event store to append to, the query views to check
// against (who may act, which account an address belongs to).
import type { EventStore } from "../event-store/event-store.port.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";

export interface WritePorts {
  readonly eventStore: EventStore;
  readonly views: ReadModels;
}
