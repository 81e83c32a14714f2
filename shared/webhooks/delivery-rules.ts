// What becomes of a delivery after an attempt, as pure rules: a 2xx delivers; 410 Gone fails it and disables the
// webhook; anything else (another status, a refused address, a network error, the timeout) is retried after an
// exponential backoff with jitter, until the delivery has been failing for the failure window, when it fails
// and the webhook is disabled with the reason.
import type { AttemptOutcome, DeliveryRecord } from "./webhook-deliveries.port.ts";

export const DELIVERY_TIMEOUT_MS = 10_000;
export const MAX_RETRY_DELAY_MS = 24 * 60 * 60_000;
export const FAILURE_WINDOW_MS = 3 * 24 * 60 * 60_000;

export type AttemptResult =
  { readonly kind: "response"; readonly status: number } | { readonly kind: "error"; readonly message: string };

export interface RetryRules {
  /** The longest wait before the first retry; the n-th retry waits at most firstRetryMs × 2^(n-1), capped at a day. */
  readonly firstRetryMs: number;
  readonly failureWindowMs: number;
}

/** The wait after the attempts-th failed attempt: between half and all of the doubling bound (`random` in [0, 1)). */
export function retryDelayMs(attempts: number, rules: RetryRules, random: number): number {
  const bound = Math.min(MAX_RETRY_DELAY_MS, rules.firstRetryMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30));
  return Math.round(bound / 2 + (random * bound) / 2);
}

export function afterAttempt(
  delivery: Pick<DeliveryRecord, "attempts" | "createdAt">,
  result: AttemptResult,
  now: Date,
  rules: RetryRules,
  random: number,
): { outcome: AttemptOutcome; disableReason: string | null } {
  const attempts = delivery.attempts + 1;
  const status = result.kind === "response" ? result.status : null;
  if (status !== null && status >= 200 && status < 300) {
    return {
      outcome: {
        status: "delivered",
        attempts,
        lastResponseStatus: status,
        lastError: null,
        deliveredAt: now.toISOString(),
        nextAttemptAt: null,
      },
      disableReason: null,
    };
  }
  const error = result.kind === "error" ? result.message : `the endpoint answered ${status}`;
  if (status === 410) {
    const outcome = {
      status: "failed" as const,
      attempts,
      lastResponseStatus: status,
      lastError: error,
      deliveredAt: null,
      nextAttemptAt: null,
    };
    return { outcome, disableReason: "the endpoint answered 410 Gone" };
  }
  if (now.getTime() - Date.parse(delivery.createdAt) >= rules.failureWindowMs) {
    const outcome = {
      status: "failed" as const,
      attempts,
      lastResponseStatus: status,
      lastError: error,
      deliveredAt: null,
      nextAttemptAt: null,
    };
    return {
      outcome,
      disableReason: `deliveries failed for ${Math.round(rules.failureWindowMs / 3_600_000)} hours; last error: ${error}`,
    };
  }
  const nextAttemptAt = new Date(now.getTime() + retryDelayMs(attempts, rules, random)).toISOString();
  return {
    outcome: {
      status: "pending",
      attempts,
      lastResponseStatus: status,
      lastError: error,
      deliveredAt: null,
      nextAttemptAt,
    },
    disableReason: null,
  };
}
