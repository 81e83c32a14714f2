// What an Idempotency-Key keeps of a write's answer for a replay, recorded as one event.
import type { WorkResult } from "./idempotent-request.ts";

/**
 * The largest answer body kept for a replay, well inside the largest change (MAX_APPEND_BYTES), since the
 * answer is recorded as one event.
 */
export const RECORDED_ANSWER_MAX_BYTES = 512 * 1024;

/**
 * What is recorded for a replay: the answer, or, when its body is over RECORDED_ANSWER_MAX_BYTES and the route
 * can present its record again (`presentsAgain`), the answer without its body, so the key always completes and a
 * replay never runs the work again. A route that cannot present again bounds its answer by its input (an import
 * lists at most 256 KiB of reasons) and is kept whole.
 */
export function recordable(
  answer: {
    readonly status: number;
    readonly body: unknown;
    readonly consistencyToken: string;
    readonly location?: string;
  },
  presentsAgain: boolean,
): WorkResult {
  const { status, body, consistencyToken, location } = answer;
  const kept = { status, body, consistencyToken, ...(location === undefined ? {} : { location }) };
  if (!presentsAgain || Buffer.byteLength(JSON.stringify(body) ?? "") <= RECORDED_ANSWER_MAX_BYTES) return kept;
  return { ...kept, body: null, presentAgain: true };
}
