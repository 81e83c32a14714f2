import { describe, expect, it } from "vitest";
import { newestOfSources, type Ranked, type RankedSource } from "../../shared/read-store/newest-of-sources.ts";

/** A deterministic generator so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function sourceOf(items: Ranked[], reads: { rows: number }): RankedSource {
  const sorted = [...items].sort((a, b) => b.position - a.position);
  return (before, limit) => {
    const rows = sorted.filter((item) => item.position < before).slice(0, limit);
    reads.rows += rows.length;
    return rows;
  };
}

describe("newest of several sources", () => {
  it("returns exactly the newest distinct items of the union, for many random shapes", () => {
    const next = random(7);
    for (let round = 0; round < 300; round += 1) {
      const universe = Array.from({ length: Math.floor(next() * 400) }, (_, i) => ({ id: `i${i}`, position: i + 1 }));
      const sourceCount = 1 + Math.floor(next() * 25);
      const skew = next();
      const sources = Array.from({ length: sourceCount }, () => universe.filter(() => next() < skew * next()));
      const take = 1 + Math.floor(next() * 60);
      const before = next() < 0.3 ? Math.floor(next() * 400) : Number.MAX_SAFE_INTEGER;
      const reads = { rows: 0 };
      const got = newestOfSources(sources.map((items) => sourceOf(items, reads)), before, take);
      const union = new Map(sources.flat().filter((item) => item.position < before).map((item) => [item.id, item.position]));
      const expected = [...union.entries()].sort((a, b) => b[1] - a[1]).slice(0, take).map(([id]) => id);
      expect(got.map((item) => item.id), `round ${round}`).toEqual(expected);
      const readers = sources.map((items) => sourceOf(items, reads));
      const batched = newestOfSources(readers, before, take, (upTo, limit) => readers.map((read) => read(upTo, limit)));
      expect(batched.map((item) => item.id), `round ${round}, first round batched`).toEqual(expected);
    }
  });

  it("reads far fewer rows than take per source when one source holds the newest items", () => {
    const hot = Array.from({ length: 1_000 }, (_, i) => ({ id: `hot${i}`, position: 10_000 + i }));
    const cold = Array.from({ length: 20 }, (_, s) => Array.from({ length: 500 }, (_, i) => ({ id: `c${s}-${i}`, position: s * 500 + i })));
    const reads = { rows: 0 };
    const got = newestOfSources([hot, ...cold].map((items) => sourceOf(items, reads)), Number.MAX_SAFE_INTEGER, 51);
    expect(got).toHaveLength(51);
    expect(got[0]?.id).toBe("hot999");
    expect(reads.rows).toBeLessThan(51 * 21);
    expect(reads.rows).toBeLessThan(51 + 21 * 8 + 51);
  });
});
