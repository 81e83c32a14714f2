// The HTTP rows with all three references: the bare-route ceiling (every run measures it, so runs compare),
// the same-bytes ceiling, and the in-process limit where the read has one; verdicts by the targets of
// docs/benchmarks.md ("What each row is compared with").
import { failedText, type LoadFigures } from "./http-load.ts";
import type { SameBytes } from "./fair-ceilings.ts";
import { fmt, verdict, type Row } from "./report.ts";

export interface FairTarget {
  /** Minimum ratio to the bare-route ceiling (POST keeps this one). */
  readonly ceiling?: number;
  readonly sameBytes?: number;
  readonly inProcess?: number;
  readonly maxP99?: number;
}

export function fairRow(
  figure: string,
  f: LoadFigures,
  refs: { ceiling: LoadFigures; sameBytes?: SameBytes; inProcessPerSecond?: number },
  target: FairTarget,
): Row {
  const ceilingRatio = f.requestsPerSecond / refs.ceiling.requestsPerSecond;
  const sameRatio = refs.sameBytes ? f.requestsPerSecond / refs.sameBytes.figures.requestsPerSecond : null;
  const inRatio = refs.inProcessPerSecond ? f.requestsPerSecond / refs.inProcessPerSecond : null;
  const failed = f.non2xx + f.errors;
  const ok =
    failed === 0 &&
    (target.ceiling === undefined || ceilingRatio >= target.ceiling) &&
    (target.sameBytes === undefined || (sameRatio !== null && sameRatio >= target.sameBytes)) &&
    (target.inProcess === undefined || (inRatio !== null && inRatio >= target.inProcess)) &&
    (target.maxP99 === undefined || f.p99Ms <= target.maxP99);
  const wanted = [
    target.ceiling === undefined ? null : `≥ ${target.ceiling}× ceiling`,
    target.sameBytes === undefined ? null : `≥ ${target.sameBytes}× same-bytes`,
    target.inProcess === undefined ? null : `≥ ${target.inProcess}× in-process`,
    target.maxP99 === undefined ? null : `p99 ≤ ${target.maxP99} ms`,
  ].filter((part) => part !== null);
  return {
    figure,
    value: `${fmt(f.requestsPerSecond)} req/s, p99 ${fmt(f.p99Ms)} ms, ${failedText(f)}`,
    reference: `ceiling ${fmt(refs.ceiling.requestsPerSecond)} req/s`,
    ratio: `${fmt(ceilingRatio, 2)}×`,
    ...(refs.sameBytes && sameRatio !== null
      ? {
          sameBytes: `${fmt(refs.sameBytes.figures.requestsPerSecond)} req/s (${fmt(refs.sameBytes.bytes)} B): ${fmt(sameRatio, 2)}×`,
        }
      : {}),
    ...(refs.inProcessPerSecond && inRatio !== null
      ? { inProcess: `${fmt(refs.inProcessPerSecond)}/s: ${fmt(inRatio, 2)}×` }
      : {}),
    target: wanted.length > 0 ? wanted.join(", ") : "report",
    verdict: wanted.length > 0 ? verdict(ok) : "report",
  };
}
