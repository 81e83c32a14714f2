// The one binding of a write route. The route says what differs: what it decides, and which record it answers
// (the status, the Location, and the record's declaration from services/command-api/answers/, which knows how to
// present it once visible and how to fold it meanwhile); the binding does the rest, the same for every write: the
// caller (actorOf), the answer settled against the read models (settleWrite: 202 when they lag) and sent with its
// headers (sendWrite).
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Actor } from "../../shared/commands/guarded-command.ts";
import type { PageId } from "../../shared/kernel/ids.ts";
import type { CommandApiPorts } from "./command-api-ports.ts";
import { idempotentWrite } from "./idempotent-write.ts";
import type { RecordedResponse } from "../../shared/idempotency/idempotency.decider.ts";
import { CONSISTENCY_HEADER, positionOfToken } from "../../shared/position.ts";
import { actorOf } from "./request-actor.ts";
import { settleWrite } from "./write-answer.ts";

type WriteOutcome = Parameters<typeof settleWrite>[3];
type WriteAnswer = Awaited<ReturnType<typeof settleWrite>>;

/** What a route decided: the position its events reached (null when it appended nothing), and what it answers. */
type Written = WriteOutcome & { readonly position: number | null };

/** What a route's decision is given: the caller, and the two steps a route may need to hold something across (plain
 * functions, to destructure). */
interface WriteScope {
  readonly actor: Actor;
  /**
   * Settles now: for a route that holds something until its answer is settled (a quota reservation, one
   * creation at a time per user), and so returns the settled answer instead of what it decided.
   */
  readonly settle: (written: Written) => Promise<WriteAnswer>;
  /** A creating POST's work, run once per Idempotency-Key (idempotent-write.ts). */
  readonly once: (work: () => Promise<Written | WriteAnswer>, options?: OnceOptions) => Promise<WriteAnswer>;
}

interface OnceOptions {
  /** What stands for the body in the fingerprint when it is not JSON (an upload's file is its SHA-256). */
  readonly fingerprintBody?: unknown;
  /**
   * How the route answers without running its work (its status and the record it answers, after checking the
   * caller may still see the record), for a replay whose first answer was too large to record: settled again at the
   * recorded position. A route whose answer can outgrow the record gives it (a reply answers its whole thread);
   * the others bound their answers by their input.
   */
  readonly again?: () => Promise<WriteOutcome>;
  /** The page written to, when the answer's Location does not name it: the answer is erased with the page. */
  readonly pageId?: PageId;
}

type WriteDecision = (write: WriteScope) => Promise<Written | WriteAnswer>;

/** A write route's handler body: `answer(request, reply, async ({ actor }) => ({ position, status: 200, answer: folderAnswer(folderId) }))`. */
type AnswerWrite = (request: FastifyRequest, reply: FastifyReply, decide: WriteDecision) => Promise<FastifyReply>;

function sendWrite(reply: FastifyReply, answer: WriteAnswer) {
  for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value);
  if (answer.location !== undefined) reply.header("location", answer.location);
  return reply.header(CONSISTENCY_HEADER, answer.consistencyToken).code(answer.status).send(answer.body);
}

const settled = (result: Written | WriteAnswer): result is WriteAnswer => "consistencyToken" in result;

/** Binds the ports once per route file. */
export function answerWrites(
  ports: Pick<
    CommandApiPorts,
    "clock" | "projection" | "consistencyWaitMs" | "logger" | "eventStore" | "keyedHashes" | "views"
  >,
): AnswerWrite {
  return async (request, reply, decide) => {
    const actor = actorOf(request, ports.clock);
    const settle = async (result: Written | WriteAnswer): Promise<WriteAnswer> => {
      if (settled(result)) return result;
      const { position, ...outcome } = result;
      return settleWrite(ports, actor.principal, position, outcome);
    };
    const once = (
      work: () => Promise<Written | WriteAnswer>,
      { fingerprintBody = request.body, again, pageId }: OnceOptions = {},
    ) =>
      idempotentWrite(ports, request, actor, async () => settle(await work()), {
        fingerprintBody,
        ...(pageId === undefined ? {} : { pageId }),
        ...(again
          ? {
              again: async ({ consistencyToken }: RecordedResponse) =>
                settleWrite(
                  ports,
                  actor.principal,
                  consistencyToken === null ? null : positionOfToken(consistencyToken),
                  await again(),
                ),
            }
          : {}),
      });
    return sendWrite(reply, await settle(await decide({ actor, settle, once })));
  };
}
