// The renderer in the worker pool, and its way out for markdown it cannot render in time.
import { afterEach, describe, expect, it } from "vitest";
import { SharedPageRenderer } from "../../shared/share-links/render/render-shared-page.ts";
import { WorkerPool } from "../../shared/workers/worker-pool.ts";

const options = { linkBase: "/s/sl_test", rootPageId: null, pages: {} };
const pools: WorkerPool[] = [];
const renderer = (timeLimitMs?: number, pastLimit?: (markdown: string) => boolean): SharedPageRenderer => {
  const pool = new WorkerPool({ threads: 1, taskTimeLimitMs: 60_000, memoryMb: 512, queue: 8 });
  pools.push(pool);
  return new SharedPageRenderer(pool, timeLimitMs, pastLimit);
};
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.close();
});

describe("rendering a shared page off the event loop", () => {
  it("renders in the worker pool", async () => {
    const shared = renderer();
    expect(await shared.render("**bold** <script>x</script>", options)).toBe("<p><strong>bold</strong> x</p>");
    expect(shared.rendered).toBe(1);
  }, 30_000);

  it("shows markdown it cannot render within the time limit as escaped text, answers it so at once the next time, and renders the next page on a fresh worker", async () => {
    // 60,000 characters of unclosed link brackets take the parser seconds (its matching is quadratic); the limit
    // is 100 ms, and no prediction spares the worker here.
    const shared = renderer(100, () => false);
    const pathological = `<b>${"[x]".repeat(20_000)}`;
    const shown = await shared.render(pathological, options);
    expect(shown.startsWith("<pre>&lt;b&gt;[x][x]")).toBe(true);
    expect(shown).not.toContain("<b>");
    expect(shared.rendered).toBe(0);
    expect(await shared.render(pathological, options)).toBe(shown);
    expect(await shared.render("fine", options)).toBe("<p>fine</p>");
    expect(shared.rendered).toBe(1);
  }, 60_000);

  it("shows a page whose brackets predict a render past the limit as escaped text at once, whatever its suffix, without taking a worker", async () => {
    const pool = new WorkerPool({ threads: 1, taskTimeLimitMs: 60_000, memoryMb: 512, queue: 8 });
    pools.push(pool);
    const shared = new SharedPageRenderer(pool);
    const started = performance.now();
    for (const suffix of ["a", "b", "c", "d"])
      expect(await shared.render(`${"[x]".repeat(40_000)}${suffix}`, options)).toMatch(/^<pre>\[x\]/);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(pool.completed).toBe(0);
  }, 30_000);
});
