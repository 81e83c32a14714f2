// How a writing tool answers: once its events are stored it never reports failure. When the read models show
// the change within the wait, the tool's own result (status "done"); when not yet, status "recorded" with the id
// and the consistency token a later read can wait for, and no record (where the HTTP API's 202 carries the
// record the write side assembled, with X-Read-Side: behind). Creating tools run under an optional idempotency
// key, recorded and replayed as the HTTP API's Idempotency-Key.
import { z } from "zod";
import { answerOf, type Answer } from "../command-api/answers/answer.ts";
import { settleWrite } from "../command-api/write-answer.ts";
import type { CommandApiPorts } from "../command-api/command-api-ports.ts";
import { runIdempotently } from "../../shared/idempotency/idempotent-request.ts";
import { requestFingerprint, unkeyedRequestFingerprint } from "../../shared/idempotency/request-fingerprint.ts";
import type { Actor } from "../../shared/commands/guarded-command.ts";

/** The result schema of a writing tool: its own fields, present once the change is visible. */
export const writeOutput = <T extends z.ZodRawShape>(shape: T) =>
  z.object({
    status: z
      .enum(["done", "recorded"])
      .describe("done: the change is visible; recorded: stored but not visible yet (reads may lag briefly)"),
    id: z.string().nullable().describe("what the change is about"),
    consistencyToken: z.string().describe("the X-Consistency-Token a later HTTP read can wait for"),
    ...z.object(shape).partial().shape,
  });

/**
 * A tool's write, bound once per tool file to the ports: `settle` its decision (the record it answers, declared as
 * the HTTP routes declare it: services/command-api/answers/), run its work `once` per key.
 */
export function toolWrites(
  ports: Pick<CommandApiPorts, "projection" | "consistencyWaitMs" | "logger" | "eventStore" | "keyedHashes" | "views">,
) {
  return {
    settle: (actor: Actor, position: number | null, outcome: ToolOutcome) =>
      settleTool(ports, actor, position, outcome),
    once: <T extends z.ZodType>(actor: Actor, call: ToolCall<T>, work: () => Promise<Record<string, unknown>>) =>
      idempotentTool(ports, actor, call, work),
  };
}

interface ToolOutcome {
  readonly id: string | null;
  /** The result's own fields, once the change is visible. */
  readonly answer: Answer<object>;
}

interface ToolCall<T extends z.ZodType> {
  readonly tool: string;
  readonly key: string | undefined;
  readonly args: unknown;
  readonly output: T;
}

async function settleTool(
  ports: Pick<CommandApiPorts, "projection" | "consistencyWaitMs" | "logger" | "eventStore" | "views">,
  actor: Actor,
  position: number | null,
  outcome: ToolOutcome,
): Promise<Record<string, unknown>> {
  const answer = await settleWrite(ports, actor.principal, position, {
    status: 200,
    // A tool's result before the read side shows the write: its status, id and consistency token only.
    answer: answerOf<unknown>(outcome.answer.present, async () => ({ body: null })),
  });
  const body: unknown = answer.body;
  const fields = answer.status === 202 || typeof body !== "object" || body === null ? {} : body;
  return {
    status: answer.status === 202 ? "recorded" : "done",
    id: outcome.id,
    consistencyToken: answer.consistencyToken,
    ...fields,
  };
}

/** Runs a creating tool once per idempotency key and arguments; a retry with the same key replays its result. */
async function idempotentTool<T extends z.ZodType>(
  ports: Pick<CommandApiPorts, "eventStore" | "keyedHashes">,
  actor: Actor,
  call: ToolCall<T>,
  work: () => Promise<Record<string, unknown>>,
): Promise<z.output<T>> {
  if (call.key === undefined) return call.output.parse(await work());
  const fingerprinted = { method: "MCP", path: `tools/${call.tool}`, body: call.args };
  const fingerprint = requestFingerprint(fingerprinted, ports.keyedHashes.requestFingerprint);
  const request = {
    callerId: actor.context.actorId,
    key: call.key,
    fingerprint,
    unkeyedFingerprint: unkeyedRequestFingerprint(fingerprinted),
  };
  const response = await runIdempotently(ports.eventStore, request, actor.context, async () => {
    const result = await work();
    return {
      status: 200,
      body: result,
      consistencyToken: typeof result.consistencyToken === "string" ? result.consistencyToken : null,
    };
  });
  // A replay is the recorded JSON: read back through the tool's result schema like any stored input.
  return call.output.parse(response.body);
}
