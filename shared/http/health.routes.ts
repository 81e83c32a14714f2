// GET /healthz (the process answers) and GET /readyz (stores reachable, projection caught up within bounds).
import type { App } from "./create-app.ts";
import type { EventStore } from "../event-store/event-store.port.ts";
import type { ReadStore } from "../read-store/read-store.port.ts";

export const READY_MAX_LAG = 1_000;

export function healthRoutes(app: App, stores: { eventStore?: EventStore; readStore?: ReadStore }): void {
  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (_request, reply) => {
    try {
      const head = stores.eventStore ? await stores.eventStore.headPosition() : null;
      const checkpoint = stores.readStore ? await stores.readStore.checkpoint() : null;
      const lag = head !== null && checkpoint !== null ? Math.max(0, head - checkpoint) : 0;
      const ready = lag <= READY_MAX_LAG;
      return reply.code(ready ? 200 : 503).send({ status: ready ? "ready" : "catching_up", head, checkpoint, lag });
    } catch {
      return reply.code(503).send({ status: "unavailable" });
    }
  });
}
