// How a write answers. Once its events are stored it is never reported as failed: when the read models show it
// within the wait, the route's own answer, read from them; when they do not yet, 202 with the same body assembled
// by the write side from what it just decided, and X-Read-Side: behind. Either way one body type per operation
// (a generated client needs no narrowing), and the X-Consistency-Token names the position a later read can wait for.
import { z } from "zod";
import { errorBody } from "../../shared/http/schemas.ts";
import { tokenOfPosition } from "../../shared/position.ts";
import type { CommandApiPorts } from "./command-api-ports.ts";

/** A route's answer once its write is visible: the body, and headers such as an ETag or the content type. */
export interface Presented {
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

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
 * What a write answers once visible, and how the write side assembles the same answer while the read side is
 * behind. A 204 has neither: nothing to present, and its 202 has no body.
 */
type WriteOutcome =
  | { readonly status: 204 }
  | {
      readonly status: number;
      /** The path of what the write creates, answered as Location whether it is visible yet or not. */
      readonly location?: string;
      present(): Promise<Presented>;
      /** The same answer as `present`, from the write side's own state: the events just appended, the command, the decider's state. */
      assemble(): Promise<Presented>;
    };

export async function settleWrite(
  ports: Pick<CommandApiPorts, "projection" | "consistencyWaitMs" | "logger" | "eventStore">,
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
      ...("present" in outcome ? await outcome.present() : { body: null }),
      consistencyToken,
      ...located,
    };
  }
  ports.logger.warn({ event: "projection.wait_timeout", position: target });
  const assembled = "assemble" in outcome ? await outcome.assemble() : { body: undefined };
  return {
    status: 202,
    body: assembled.body,
    headers: { ...assembled.headers, [READ_SIDE_HEADER]: "behind" },
    consistencyToken,
    ...located,
  };
}
