// Rate limits as one hook: after authentication (so a caller is its API token, else its user, else its
// address) and before the body is read, the request spends one unit of its class's budget (request-class.ts),
// and a signed-in user's request one unit of the budget all that user's tokens and sessions share.
// Every counted answer says the policy and what is left (RateLimit-Policy, RateLimit); past the quota the
// answer is 429 rate_limited with Retry-After. When the counter store cannot be reached the request goes
// through: a limiter outage must not become an API outage.
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { Principal } from "../auth/principal.ts";
import { AppError } from "../errors/app-error.ts";
import type { RateLimitCounters } from "../rate-limit/rate-limit-counters.port.ts";
import {
  PER_USER_CLASSES,
  rateLimitFields,
  userPolicy,
  verdictFor,
  windowAt,
  type RateLimitClass,
  type RateLimitPolicies,
  type RateLimitPolicy,
  type RateLimitVerdict,
} from "../rate-limit/rate-limit-policy.ts";
import { rateLimitClassOf } from "../rate-limit/request-class.ts";

export interface RateLimits {
  readonly counters: RateLimitCounters;
  readonly policies: RateLimitPolicies;
  /** All of one user's tokens and sessions together may spend this many times one caller's quota (default 1). */
  readonly userFactor?: number;
  /** Milliseconds since the epoch; windows are aligned on it. */
  readonly now?: () => number;
}

/** One budget a request spends: the name its fields carry, the policy, and whose counter. */
interface Budget {
  readonly name: string;
  readonly policy: RateLimitPolicy;
  readonly caller: string;
}

/** Who spends: a signed-in caller, else the client's address. */
export type Spender = { readonly principal: Principal } | { readonly address: string };

/**
 * The budgets a request spends in its class: its caller's (the API token, else the user, else the address), and
 * for a signed-in user also the budget all their tokens and sessions share, so that making more tokens buys no
 * more. Per-user classes (sharing) are counted for the user alone, whatever the credential.
 */
function budgetsOf(spender: Spender, rateClass: RateLimitClass, policy: RateLimitPolicy, userFactor: number): Budget[] {
  if (!("principal" in spender)) return [{ name: rateClass, policy, caller: `address:${spender.address}` }];
  const { principal } = spender;
  const user = `user:${principal.user.id}`;
  if (PER_USER_CLASSES.has(rateClass)) return [{ name: rateClass, policy, caller: user }];
  const own: Budget = { name: rateClass, policy, caller: principal.tokenId ? `token:${principal.tokenId}` : user };
  return [own, { name: `${rateClass}-user`, policy: userPolicy(policy, userFactor), caller: `all-of:${user}` }];
}

/**
 * Spends `units` of the spender's budgets in `rateClass` (an HTTP request spends one; an MCP message, each
 * message of a batch one, and each tool call one more as the route it stands for): the one rule every way in
 * shares, so a user's total is the same over HTTP and MCP. Answers the RateLimit fields of the binding budget,
 * or throws 429 rate_limited past it; nothing when the class is not limited or the counter store is down (a
 * limiter outage must not become an API outage).
 */
export async function spendBudget(
  limits: RateLimits,
  rateClass: RateLimitClass,
  spender: Spender,
  logger: FastifyBaseLogger,
  units = 1,
): Promise<Record<string, string>> {
  const policy = limits.policies[rateClass];
  if (!policy) return {};
  const at = (limits.now ?? Date.now)();
  let spent: Array<{ budget: Budget; verdict: RateLimitVerdict }>;
  try {
    spent = await Promise.all(
      budgetsOf(spender, rateClass, policy, limits.userFactor ?? 1).map(async (budget) => {
        const window = windowAt(rateClass, budget.caller, budget.policy, at);
        let count = 0;
        for (let unit = 0; unit < units; unit += 1)
          count = await limits.counters.increment(window.key, budget.policy.windowSeconds);
        return { budget, verdict: verdictFor(budget.policy, window, count) };
      }),
    );
  } catch (error) {
    logger.warn({ event: "rate_limit.unavailable", err: error });
    return {};
  }
  // The answer names the budget that binds: the one refused (the shared one when both are: a fresh token would
  // not help), else the one with the least left.
  const binding =
    spent.filter(({ verdict }) => !verdict.allowed).at(-1) ??
    [...spent].sort((a, b) => a.verdict.remaining - b.verdict.remaining)[0];
  if (!binding) return {};
  const { budget, verdict } = binding;
  const fields = rateLimitFields(budget.name, budget.policy, verdict);
  if (!verdict.allowed) {
    const whose = budget.name === rateClass ? "" : " across all your tokens and sessions";
    throw new AppError("rate_limited", `too many ${rateClass} requests${whose}; retry in ${verdict.resetSeconds} s`, {
      ...fields,
      "retry-after": String(verdict.resetSeconds),
    });
  }
  return fields;
}

export function installRateLimits(app: FastifyInstance, limits: RateLimits, logger: FastifyBaseLogger): void {
  // A matched route's class, by method and pattern: the same for each of its requests (the patterns are few).
  const classes = new Map<string, RateLimitClass | null>();
  const classOf = (method: string, route: string): RateLimitClass | null => {
    const key = `${method} ${route}`;
    let rateClass = classes.get(key);
    if (rateClass === undefined) {
      rateClass = rateLimitClassOf(method, route);
      classes.set(key, rateClass);
    }
    return rateClass;
  };
  app.addHook("preParsing", async (request, reply) => {
    const route = request.routeOptions.url;
    const rateClass =
      route === undefined
        ? rateLimitClassOf(request.method, request.url.split("?")[0] ?? "")
        : classOf(request.method, route);
    if (!rateClass) return;
    const spender: Spender = request.principal ? { principal: request.principal } : { address: request.ip };
    reply.headers(await spendBudget(limits, rateClass, spender, logger));
  });
}
