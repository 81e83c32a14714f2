// The worst-case table of the benchmark (`npm run bench -- --only worst`) measures every operation of the API
// reference: each has its worst case in bench/worst/cases/, and each worst case belongs to an operation of it.
import { describe, expect, it } from "vitest";
import { WORST_CASES } from "../../bench/worst/operations.ts";
import { operations } from "../../shared/http/api-operations.ts";

/** Served only where an OpenID provider is configured: the benchmark's server has none, so it never lists them. */
const NOT_SERVED_TO_THE_BENCHMARK = ["GET /auth/login", "GET /auth/callback"];

/** A second row of an operation ("POST /api/v1/groups/{groupId}/members (fan-out)") names it before a parenthesis. */
const operationOf = (key: string): string => key.replace(/ \([^)]*\)$/, "");

describe("the benchmark's worst cases", () => {
  it("cover every operation of the API reference the benchmark's server serves", () => {
    const missing = Object.keys(operations).filter(
      (key) => !(key in WORST_CASES) && !NOT_SERVED_TO_THE_BENCHMARK.includes(key),
    );
    expect(missing).toEqual([]);
  });

  it("are each an operation of the reference, or a second row of one", () => {
    const strays = Object.keys(WORST_CASES).filter((key) => !(operationOf(key) in operations));
    expect(strays).toEqual([]);
  });

  it("leave out only operations the reference has and the benchmark's server cannot serve", () => {
    for (const key of NOT_SERVED_TO_THE_BENCHMARK) {
      expect(operations[key], key).toBeDefined();
      expect(WORST_CASES[key], key).toBeUndefined();
    }
  });

  it("each say what makes their input the worst and run at least once", () => {
    for (const [key, worst] of Object.entries(WORST_CASES)) {
      expect(worst.input.trim(), key).not.toBe("");
      expect(worst.maxIterations ?? 1, key).toBeGreaterThanOrEqual(1);
    }
  });
});
