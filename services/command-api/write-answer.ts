// How a write answers. Once its events are stored it is never reported as failed: when the read models show it
// within the wait, the route's own answer; when they do not yet, 202 with the id and what to read it with.
// Either way the X-Consistency-Token names the position a later read can wait for.
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { Actor } from "../../shared/commands/guarded-command.ts";
import { principalOf } from "../../shared/http/guard.ts";
import { errorBody } from "../../shared/http/schemas.ts";
import { userIdSchema } from "../../shared/kernel/ids.ts";
import { CONSISTENCY_HEADER, tokenOfPosition } from "../../shared/position.ts";
import type { CommandApiPorts } from "./command-api.ts";

/** A route's answer once its write is visible: the body, and headers such as an ETag or the content type. */
export interface Presented {
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface WriteAnswer extends Presented {
  readonly status: number;
  readonly consistencyToken: string;
  /** The path of the resource the write created (the Location header); see shared/http/locations.ts. */
  readonly location?: string;
}

/** 202 of a write not yet visible: the id of what it wrote, absent when it names no one thing (a deletion, a grant). */
export const recordedReply = z.object({
  id: z.string().optional(),
  status: z.literal("recorded"),
  message: z.string(),
});

/** 202 of a creation not yet visible: the new id is always known, so a client can read it once it is visible. */
export const createdRecordedReply = recordedReply.extend({ id: z.string() });

/** The response schemas of a write: its own, 202 when not yet visible (with the id when it creates), and the errors. */
export const writeResponses = <T extends Record<number, z.ZodType>>(own: T) => ({
  202: 201 in own ? createdRecordedReply : recordedReply,
  ...own,
  "4xx": errorBody,
  "5xx": errorBody,
});

export function actorOf(request: FastifyRequest, clock: () => Date): Actor {
  const principal = principalOf(request);
  return { principal, context: { actorId: userIdSchema.parse(principal.user.id), tokenId: principal.tokenId, correlationId: request.id, now: clock() } };
}

export async function settleWrite(
  ports: Pick<CommandApiPorts, "projection" | "consistencyWaitMs" | "logger" | "eventStore">,
  position: number | null,
  /** `location`: the path of what the write creates, answered as Location whether it is visible yet or not. */
  outcome: { readonly status: number; readonly id: string | null; readonly location?: string; present(): Promise<Presented> },
): Promise<WriteAnswer> {
  // A command that changed nothing appended nothing, but it decided on what the log held, which may include a
  // concurrent request's events not projected yet (ten concurrent first invitations of one address: nine find
  // the first one's invitation and change nothing): its answer waits for the log as it is now.
  const target = position ?? (await ports.eventStore.headPosition());
  const consistencyToken = tokenOfPosition(target);
  const located = outcome.location === undefined ? {} : { location: outcome.location };
  if (await ports.projection.waitFor(target, ports.consistencyWaitMs)) {
    return { status: outcome.status, ...(await outcome.present()), consistencyToken, ...located };
  }
  ports.logger.warn({ event: "projection.wait_timeout", position: target });
  const message = "the change is recorded but not visible yet; send this response's X-Consistency-Token with your next read";
  return { status: 202, body: { ...(outcome.id === null ? {} : { id: outcome.id }), status: "recorded", message }, consistencyToken, ...located };
}

export function sendWrite(reply: FastifyReply, answer: WriteAnswer) {
  for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value);
  if (answer.location !== undefined) reply.header("location", answer.location);
  return reply.header(CONSISTENCY_HEADER, answer.consistencyToken).code(answer.status).send(answer.body);
}
