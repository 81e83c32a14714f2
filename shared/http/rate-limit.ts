// Rate limits as one hook: after authentication (so a caller is its API token, else its user, else its
// address) and before the body is read, the request spends one unit of its class's budget (request-class.ts).
// Every counted answer says the policy and what is left (RateLimit-Policy, RateLimit); past the quota the
// answer is 429 rate_limited with Retry-After. When the counter store cannot be reached the request goes
// through: a limiter outage must not become an API outage.
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../errors/app-error.ts";
import type { RateLimitCounters } from "../rate-limit/rate-limit-counters.port.ts";
import { rateLimitFields, verdictFor, windowAt, type RateLimitPolicies } from "../rate-limit/rate-limit-policy.ts";
import { rateLimitClassOf } from "../rate-limit/request-class.ts";

export interface RateLimits {
  readonly counters: RateLimitCounters;
  readonly policies: RateLimitPolicies;
  /** Milliseconds since the epoch; windows are aligned on it. */
  readonly now?: () => number;
}

function callerOf(request: FastifyRequest): string {
  const principal = request.principal;
  if (principal?.tokenId) return `token:${principal.tokenId}`;
  if (principal) return `user:${principal.user.id}`;
  return `address:${request.ip}`;
}

export function installRateLimits(app: FastifyInstance, limits: RateLimits, logger: FastifyBaseLogger): void {
  const now = limits.now ?? Date.now;
  app.addHook("preParsing", async (request, reply) => {
    const rateClass = rateLimitClassOf(request.method, request.routeOptions.url ?? (request.url.split("?")[0] ?? ""));
    const policy = rateClass ? limits.policies[rateClass] : null;
    if (!rateClass || !policy) return;
    const window = windowAt(rateClass, callerOf(request), policy, now());
    let count: number;
    try {
      count = await limits.counters.increment(window.key, policy.windowSeconds);
    } catch (error) {
      logger.warn({ event: "rate_limit.unavailable", reqId: request.id, err: error });
      return;
    }
    const verdict = verdictFor(policy, window, count);
    const fields = rateLimitFields(rateClass, policy, verdict);
    if (!verdict.allowed) {
      throw new AppError("rate_limited", `too many ${rateClass} requests; retry in ${verdict.resetSeconds} s`, { ...fields, "retry-after": String(verdict.resetSeconds) });
    }
    reply.headers(fields);
  });
}
