// How a write answers. Once its events are stored it is never reported as failed: when the read models show it
// within the wait, the answer the route declared, presented from them; when they do not yet, 202 with the same
// body folded by the write side, and X-Read-Side: behind. Either way one body type per operation (a generated
// client needs no narrowing), and the X-Consistency-Token names the position a later read can wait for.
import { z } from "zod";
import type { Principal } from "../../shared/auth/principal.ts";
import { errorBody } from "../../shared/http/schemas.ts";
import { tokenOfPosition } from "../../shared/position.ts";
import type { Answer, Presented } from "./answers/answer.ts";
import type { CommandApiPorts } from "./command-api-ports.ts";

interface WriteAnswer extends Presented {
  readonly status: number;
  readonly consistencyToken: string;
  /** The path of the resource the write created (the Location header); see shared/http/locations.ts. */
  readonly location?: string;
}

/** The header of a 202: the read side has not caught up with this write yet; its value is always `behind`. */
const READ_SIDE_HEADER = "x-read-side";

/**
 * The response schemas of a write: its own, the same body again for 202 (the read side behind), and the errors.
 * A write answering 204 answers 202 with no body.
 */
export const writeResponses = <T extends Record<number, z.ZodType>>(own: T) => {
  const body = Object.entries(own).find(([status]) => status !== "204")?.[1];
  return { 202: body ?? z.null(), ...own, "4xx": errorBody, "5xx": errorBody };
};

/**
 * What a write decided to answer: its status, and the record (or value) it answers, declared once for both
 * sides (services/command-api/answers/). A 204 answers nothing, and its 202 has no body.
 */
type WriteOutcome =
  | { readonly status: 204 }
  | {
      readonly status: number;
      /** The path of what the write creates, answered as Location whether it is visible yet or not. */
      readonly location?: string;
      readonly answer: Answer<unknown>;
    };

export async function settleWrite(
  ports: Pick<CommandApiPorts, "projection" | "consistencyWaitMs" | "logger" | "eventStore" | "views">,
  principal: Principal,
  position: number | null,
  outcome: WriteOutcome,
): Promise<WriteAnswer> {
  // A command that changed nothing appended nothing, but it decided on what the log held, which may include a
  // concurrent request's events not projected yet (ten concurrent first invitations of one address: nine find
  // the first one's invitation and change nothing): its answer waits for the log as it is now.
  const target = position ?? (await ports.eventStore.headPosition());
  const consistencyToken = tokenOfPosition(target);
  const located = "location" in outcome && outcome.location !== undefined ? { location: outcome.location } : {};
  if (await ports.projection.waitFor(target, ports.consistencyWaitMs)) {
    return {
      status: outcome.status,
      ...("answer" in outcome ? await outcome.answer.present(ports, principal) : { body: null }),
      consistencyToken,
      ...located,
    };
  }
  ports.logger.warn({ event: "projection.wait_timeout", position: target });
  const folded = "answer" in outcome ? await outcome.answer.fold(ports, principal) : { body: undefined };
  return {
    status: 202,
    body: folded.body,
    headers: { ...folded.headers, [READ_SIDE_HEADER]: "behind" },
    consistencyToken,
    ...located,
  };
}
