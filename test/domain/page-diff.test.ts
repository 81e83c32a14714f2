// The diff between two versions of a page: what it says (pure, page-diff.compute.ts), and that it is computed
// in a worker with bounds (page-diff.ts), so the event loop keeps turning while it runs.
import { describe, expect, it } from "vitest";
import { AppError } from "../../shared/errors/app-error.ts";
import { computePageDiff } from "../../shared/history/page-diff.compute.ts";
import { DEFAULT_DIFF_LIMITS, diffPageVersions } from "../../shared/history/page-diff.ts";
import { WorkerPool } from "../../shared/workers/worker-pool.ts";

const version = (markdown: string, title = "Plan", icon: string | null = null) => ({
  label: "v",
  title,
  icon,
  markdown,
});
const manyLines = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => `${prefix} ${index}`).join("\n");

describe("page diff", () => {
  it("gives line hunks with context, and the title and icon only when they changed", () => {
    const outcome = computePageDiff({
      from: version("a\nb\nc\n"),
      to: version("a\nB\nc\nd", "Plan 2", "⭐"),
      maxEditLength: 100,
      context: 3,
    });
    expect(outcome).toMatchObject({
      kind: "diff",
      diff: {
        title: { from: "Plan", to: "Plan 2" },
        icon: { from: null, to: "⭐" },
        linesAdded: 2,
        linesRemoved: 1,
        hunks: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 4, lines: [" a", "-b", "+B", " c", "+d"] }],
      },
    });
    const same = computePageDiff({ from: version("x"), to: version("x"), maxEditLength: 100, context: 3 });
    expect(same).toEqual({
      kind: "diff",
      diff: { title: null, icon: null, hunks: [], linesAdded: 0, linesRemoved: 0 },
      unified: "",
    });
  });

  it("gives up past the edit-length bound rather than working on", () => {
    expect(
      computePageDiff({
        from: version(manyLines("a", 300)),
        to: version(manyLines("b", 300)),
        maxEditLength: 100,
        context: 3,
      }),
    ).toEqual({ kind: "too_large" });
  });

  it("runs in the worker pool: the event loop turns while a large diff is computed, and a diff past its time limit is refused", async () => {
    const pool = new WorkerPool({ threads: 1, taskTimeLimitMs: 60_000, memoryMb: 256, queue: 8 });
    let turns = 0;
    let computing = true;
    const tick = () => {
      turns += 1;
      if (computing) setImmediate(tick);
    };
    setImmediate(tick);
    const limits = { ...DEFAULT_DIFF_LIMITS, maxEditLength: 50_000, timeLimitMs: 60_000 };
    const { diff } = await diffPageVersions(
      pool,
      version(manyLines("a", 2_000)),
      version(manyLines("b", 2_000)),
      limits,
    );
    computing = false;
    expect(diff.linesAdded).toBe(2_000);
    // On the loop, this diff is one long synchronous call: no turn could happen before it returned.
    expect(turns).toBeGreaterThan(10);
    const refused = diffPageVersions(pool, version(manyLines("a", 25_000)), version(manyLines("b", 25_000)), {
      ...limits,
      timeLimitMs: 100,
    });
    await expect(refused).rejects.toBeInstanceOf(AppError);
    await expect(refused).rejects.toMatchObject({ code: "diff_too_large" });
    expect(pool.completed).toBe(2);
    await pool.close();
  });
});
