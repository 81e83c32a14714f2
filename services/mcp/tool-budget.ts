// A tool call spends the caller's rate-limit budgets of its class as the HTTP request it stands for would: the
// same rule (shared/http/rate-limit.ts), the same counters and windows, the token's budget and the total all of
// its user's tokens and sessions share, so an agent cannot go around its budgets by calling tools instead of
// routes, nor by spreading its calls over more tokens.
import type { Logger } from "pino";
import type { Principal } from "../../shared/auth/principal.ts";
import { spendBudget, type RateLimits } from "../../shared/http/rate-limit.ts";
import type { RateLimitClass } from "../../shared/rate-limit/rate-limit-policy.ts";

export async function spendToolBudget(
  limits: RateLimits | undefined,
  rateClass: RateLimitClass,
  principal: Principal,
  logger: Logger,
): Promise<void> {
  if (limits) await spendBudget(limits, rateClass, { principal }, logger);
}
