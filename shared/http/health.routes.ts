// GET /healthz (the process answers) and GET /readyz (stores reachable, projection caught up within bounds).
import { z } from "zod";
import type { EventStore } from "../event-store/event-store.port.ts";
import type { App } from "./create-app.ts";

/** Ready while the read models are at most this many events behind the log, and at most READY_MAX_BYTES of them. */
const READY_MAX_LAG = 1_000;
/** What one readiness probe reads of the log at most: about one projector batch (a thousand events near the limit of one change would be a gigabyte). */
export const READY_MAX_BYTES = 4 * 1024 * 1024;

/**
 * How far the read models are behind, as `lag` says it, or null when beyond the bounds: counted by reading what
 * follows the checkpoint (positions are not dense, so a difference of positions says nothing), only up to the
 * bounds, in count and in bytes.
 */
async function lagBehind(
  eventStore: Pick<EventStore, "readAll" | "headPosition">,
  checkpoint: number,
): Promise<{ lag: string; within: boolean }> {
  const read = await eventStore.readAll(checkpoint, READY_MAX_LAG + 1, READY_MAX_BYTES);
  if (read.length > READY_MAX_LAG) return { lag: `more than ${READY_MAX_LAG} events`, within: false };
  const last = read.at(-1);
  // Fewer events than asked, yet not the log's end: the byte bound stopped the read.
  if (last && last.position < (await eventStore.headPosition()))
    return { lag: `more than ${READY_MAX_BYTES} bytes of events`, within: false };
  return { lag: `${read.length} events`, within: true };
}

const healthReply = z.object({ status: z.literal("ok") });
const readinessReply = z.object({
  status: z.enum(["ready", "degraded", "catching_up", "stalled", "unavailable"]),
  checkpoint: z.string().optional().describe("The last position the read models reflect"),
  lag: z
    .string()
    .nullable()
    .optional()
    .describe("How far behind the log they are, in events (or in bytes of events, past the probe's bound)"),
  reason: z.string().optional().describe("Why the projection is stalled, or degraded"),
  parked: z
    .number()
    .int()
    .optional()
    .describe(
      "Events a projection could not apply, parked for it (degraded: reads go on, without their effect on that read model)",
    ),
  dependencies: z
    .object({ bus: z.enum(["up", "down"]) })
    .optional()
    .describe(
      "The services this process uses besides its stores, when it has any: a bus that is down is caught up later and does not make the process unready",
    ),
});

/**
 * A process with an event store (command API, projector, all-in-one) checks the projection against the log; a
 * query node has no event store and is ready when its read models answer. The dependencies a process serves
 * without (the bus: NATS, for integration events and shared rate-limit counters) are named in the answer,
 * `dependencies: {bus: "up" | "down"}`, and do not make it unready: a process without them still serves.
 */
export function healthRoutes(
  app: App,
  stores: {
    eventStore?: Pick<EventStore, "readAll" | "headPosition">;
    readStore: { checkpoint(): Promise<number>; ping(): Promise<boolean>; parkedEvents?(): Promise<number> };
    /** The process's own projector, when it runs one: a stalled projector makes the process not ready. */
    projector?: {
      readonly stall: { readonly position: number; readonly attempts: number; readonly since: string } | null;
    };
    /** The process's optional dependencies, when it has any. */
    dependencies?: { readonly bus?: { readonly up: boolean } | null };
  },
): void {
  const bus = stores.dependencies?.bus ?? null;
  const dependencies = () => (bus ? { dependencies: { bus: bus.up ? ("up" as const) : ("down" as const) } } : {});
  app.get("/healthz", { schema: { response: { 200: healthReply } } }, async () => ({ status: "ok" as const }));
  app.get(
    "/readyz",
    { schema: { response: { 200: readinessReply, 503: readinessReply } } },
    async (_request, reply) => {
      const stall = stores.projector?.stall ?? null;
      if (stall) {
        // The batch's error stays in the projector's log (projection.stalled): this route answers without credentials.
        const reason = `the projection batch after position ${stall.position} has failed ${stall.attempts} times since ${stall.since}; every later event waits behind it (see the log's projection.stalled and docs/operations/troubleshooting.md)`;
        return reply
          .code(503)
          .send({ status: "stalled", checkpoint: String(stall.position), reason, ...dependencies() });
      }
      try {
        const reachable = await stores.readStore.ping();
        const checkpoint = await stores.readStore.checkpoint();
        const behind = stores.eventStore ? await lagBehind(stores.eventStore, checkpoint) : null;
        const ready = reachable && (behind === null || behind.within);
        const parked = (await stores.readStore.parkedEvents?.()) ?? 0;
        if (ready && parked > 0) {
          const reason = `${parked} event${parked === 1 ? " is" : "s are"} parked: a projection could not apply them and the read models lack their effect (npm run projections -- --list; docs/operations/troubleshooting.md)`;
          return reply.code(200).send({
            status: "degraded",
            checkpoint: String(checkpoint),
            lag: behind?.lag ?? null,
            parked,
            reason,
            ...dependencies(),
          });
        }
        return reply.code(ready ? 200 : 503).send({
          status: ready ? "ready" : "catching_up",
          checkpoint: String(checkpoint),
          lag: behind?.lag ?? null,
          ...dependencies(),
        });
      } catch {
        return reply.code(503).send({ status: "unavailable", ...dependencies() });
      }
    },
  );
}
