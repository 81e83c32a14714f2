// A tool call spends the caller's rate-limit budget of its class, as the HTTP request it stands for would: the
// same counters, windows and caller key (the API token, else the user), so an agent cannot go around its
// budgets by calling tools instead of routes. The /mcp requests themselves spend nothing (request-class.ts).
import type { Logger } from "pino";
import type { Principal } from "../../shared/auth/principal.ts";
import { AppError } from "../../shared/errors/app-error.ts";
import type { RateLimits } from "../../shared/http/rate-limit.ts";
import { verdictFor, windowAt, type RateLimitClass } from "../../shared/rate-limit/rate-limit-policy.ts";

const callerOf = (principal: Principal): string => (principal.tokenId ? `token:${principal.tokenId}` : `user:${principal.user.id}`);

export async function spendBudget(limits: RateLimits | undefined, rateClass: RateLimitClass, principal: Principal, logger: Logger): Promise<void> {
  const policy = limits?.policies[rateClass];
  if (!limits || !policy) return;
  const window = windowAt(rateClass, callerOf(principal), policy, (limits.now ?? Date.now)());
  let count: number;
  try {
    count = await limits.counters.increment(window.key, policy.windowSeconds);
  } catch (error) {
    // As for HTTP requests: a limiter outage must not become an outage of the tools.
    logger.warn({ event: "rate_limit.unavailable", err: error });
    return;
  }
  const verdict = verdictFor(policy, window, count);
  if (!verdict.allowed) throw new AppError("rate_limited", `too many ${rateClass} requests; retry in ${verdict.resetSeconds} s`);
}
