import { describe, expect, it } from "vitest";
import { newestOfSources, type Ranked, type RankedSource } from "../../shared/read-store/newest-of-sources.ts";
import { compareNewestFirst, LIST_START, type ListKey } from "../../shared/read-store/list-query.ts";

/** A deterministic generator so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function sourceOf(items: Ranked[], reads: { rows: number }): RankedSource {
  const sorted = [...items].sort(compareNewestFirst);
  return (before, limit) => {
    const rows = sorted.filter((item) => compareNewestFirst(item, before) > 0).slice(0, limit);
    reads.rows += rows.length;
    return rows;
  };
}

describe("newest of several sources", () => {
  it("returns exactly the newest distinct items of the union, for many random shapes", () => {
    const next = random(7);
    for (let round = 0; round < 300; round += 1) {
      // Many items share a position (as the pages below a moved folder do), so ties cross chunk boundaries.
      const universe = Array.from({ length: Math.floor(next() * 400) }, (_, i) => ({
        id: `i${i}`,
        position: 1 + Math.floor(i / (1 + Math.floor(next() * 40))),
      }));
      const sourceCount = 1 + Math.floor(next() * 25);
      const skew = next();
      const sources = Array.from({ length: sourceCount }, () => universe.filter(() => next() < skew * next()));
      const take = 1 + Math.floor(next() * 60);
      const cut = universe[Math.floor(next() * universe.length)];
      const before: ListKey = next() < 0.3 && cut ? cut : LIST_START;
      const reads = { rows: 0 };
      const got = newestOfSources(
        sources.map((items) => sourceOf(items, reads)),
        before,
        take,
      );
      const union = new Map(
        sources
          .flat()
          .filter((item) => compareNewestFirst(item, before) > 0)
          .map((item) => [item.id, item]),
      );
      const expected = [...union.values()]
        .sort(compareNewestFirst)
        .slice(0, take)
        .map((item) => item.id);
      expect(
        got.map((item) => item.id),
        `round ${round}`,
      ).toEqual(expected);
      const readers = sources.map((items) => sourceOf(items, reads));
      const batched = newestOfSources(readers, before, take, (upTo, limit) => readers.map((read) => read(upTo, limit)));
      expect(
        batched.map((item) => item.id),
        `round ${round}, first round batched`,
      ).toEqual(expected);
    }
  });

  it("reads far fewer rows than take per source when one source holds the newest items", () => {
    const hot = Array.from({ length: 1_000 }, (_, i) => ({ id: `hot${i}`, position: 10_000 + i }));
    const cold = Array.from({ length: 20 }, (_, s) =>
      Array.from({ length: 500 }, (_, i) => ({ id: `c${s}-${i}`, position: s * 500 + i })),
    );
    const reads = { rows: 0 };
    const got = newestOfSources(
      [hot, ...cold].map((items) => sourceOf(items, reads)),
      LIST_START,
      51,
    );
    expect(got).toHaveLength(51);
    expect(got[0]?.id).toBe("hot999");
    expect(reads.rows).toBeLessThan(51 * 21);
    expect(reads.rows).toBeLessThan(51 + 21 * 8 + 51);
  });
});
