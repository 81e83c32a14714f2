// After an append: wait (bounded) until the read models show it, and hand the client its consistency token.
import type { FastifyReply } from "fastify";
import type { Dependencies } from "../app/dependencies.ts";

export const CONSISTENCY_HEADER = "x-consistency-token";

export async function awaitProjection(deps: Dependencies, position: number | null, reply?: FastifyReply): Promise<void> {
  const target = position ?? (await deps.readStore.checkpoint());
  const reached = await deps.watcher.waitFor(target, deps.config.CONSISTENCY_WAIT_MS);
  if (!reached) deps.logger.warn({ event: "projection.wait_timeout", position: target });
  reply?.header(CONSISTENCY_HEADER, String(target));
}
