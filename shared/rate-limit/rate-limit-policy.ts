// Rate-limit policies and the fixed-window rule, with no I/O: which window a moment falls in, what a count
// in that window means for the request, and how that is said in the IETF RateLimit-Policy / RateLimit fields
// (draft-ietf-httpapi-ratelimit-headers-11: a quoted policy name with `q` and `w`; `r` and `t`).
import { createHash } from "node:crypto";
import { z } from "zod";

export type RateLimitClass = "read" | "write" | "search" | "upload" | "import" | "sharing";

export interface RateLimitPolicy {
  /** Requests allowed in one window. */
  readonly quota: number;
  readonly windowSeconds: number;
}

/** Each class's policy; null where the class is not limited. */
export type RateLimitPolicies = Readonly<Record<RateLimitClass, RateLimitPolicy | null>>;

const UNIT_SECONDS = { s: 1, m: 60, h: 3_600, d: 86_400 } as const;
const SPEC = /^(\d{1,9})\/(\d{1,6})(s|m|h|d)$/;

/** `<quota>/<window>` (`600/1m`, `20/10s`, `5000/1h`, `100000/1d`), or `off`: the form of RATE_LIMIT_* variables. */
export const rateLimitSpecSchema = z
  .string()
  .trim()
  .transform((spec, context): RateLimitPolicy | null => {
    if (spec === "off") return null;
    const match = SPEC.exec(spec);
    const unit = match?.[3] as keyof typeof UNIT_SECONDS | undefined;
    const quota = Number(match?.[1]);
    const windowSeconds = Number(match?.[2]) * (unit ? UNIT_SECONDS[unit] : 0);
    if (!match || quota < 1 || windowSeconds < 1 || windowSeconds > 7 * 86_400) {
      context.addIssue({
        code: "custom",
        message: "must be <quota>/<window> (e.g. 600/1m; window in s, m, h or d, at most 7d) or off",
      });
      return z.NEVER;
    }
    return { quota, windowSeconds };
  });

export interface FixedWindow {
  /** Counter key: class, caller (hashed: addresses and ids never reach a shared store in clear) and window. */
  readonly key: string;
  /** Whole seconds until the window ends, at least 1. */
  readonly resetSeconds: number;
}

/** Callers' hashed names, kept: every request of a caller names the same ones (its own and its user's). */
const CALLER_HASH_LIMIT = 10_000;
const callerHashes = new Map<string, string>();

function callerHashOf(caller: string): string {
  let hash = callerHashes.get(caller);
  if (hash === undefined) {
    if (callerHashes.size >= CALLER_HASH_LIMIT) callerHashes.clear();
    hash = createHash("sha256").update(caller).digest("hex").slice(0, 32);
    callerHashes.set(caller, hash);
  }
  return hash;
}

/** The window of `policy` that `nowMs` falls in; windows are aligned on the epoch, so every node agrees. */
export function windowAt(
  rateClass: RateLimitClass,
  caller: string,
  policy: RateLimitPolicy,
  nowMs: number,
): FixedWindow {
  const windowMs = policy.windowSeconds * 1_000;
  const index = Math.floor(nowMs / windowMs);
  return {
    key: `${rateClass}.${callerHashOf(caller)}.${index}`,
    resetSeconds: Math.max(1, Math.ceil(((index + 1) * windowMs - nowMs) / 1_000)),
  };
}

export interface RateLimitVerdict {
  readonly allowed: boolean;
  readonly remaining: number;
  readonly resetSeconds: number;
}

/** Classes counted per user whatever credential is used: every token and session of one user spends one budget. */
export const PER_USER_CLASSES: ReadonlySet<RateLimitClass> = new Set(["sharing"]);

/** The budget all of one user's tokens and sessions share in a class: `factor` times one caller's. */
export const userPolicy = (policy: RateLimitPolicy, factor: number): RateLimitPolicy => ({
  quota: policy.quota * factor,
  windowSeconds: policy.windowSeconds,
});

/** `count` is this request's place in its window (1 for the first). */
export function verdictFor(policy: RateLimitPolicy, window: FixedWindow, count: number): RateLimitVerdict {
  return {
    allowed: count <= policy.quota,
    remaining: Math.max(0, policy.quota - count),
    resetSeconds: window.resetSeconds,
  };
}

/** The response fields that describe the policy and where the caller stands in it. */
export function rateLimitFields(
  name: string,
  policy: RateLimitPolicy,
  verdict: RateLimitVerdict,
): Record<string, string> {
  return {
    "ratelimit-policy": `"${name}";q=${policy.quota};w=${policy.windowSeconds}`,
    ratelimit: `"${name}";r=${verdict.remaining};t=${verdict.resetSeconds}`,
  };
}
