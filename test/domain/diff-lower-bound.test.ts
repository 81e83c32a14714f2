// The cheap bound that refuses a diff before it takes a worker never exceeds the edit length the diff counts.
import { expect, it } from "vitest";
import { editLengthLowerBound } from "../../shared/history/diff-lower-bound.ts";
import { computePageDiff } from "../../shared/history/page-diff.compute.ts";

const version = (markdown: string) => ({ label: "v", title: "t", icon: null, markdown });

it("never exceeds the lines a diff adds and removes", () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const text = () =>
    Array.from(
      { length: Math.floor(random() * 30) },
      () => ["a", "b", "c", "d", "", "a\r"][Math.floor(random() * 6)],
    ).join("\n") + (random() < 0.5 ? "\n" : "");
  for (let round = 0; round < 300; round += 1) {
    const before = text();
    const after = text();
    const outcome = computePageDiff({ from: version(before), to: version(after), maxEditLength: 1_000, context: 3 });
    if (outcome.kind !== "diff") throw new Error("a small diff was refused");
    const bound = editLengthLowerBound(
      before.endsWith("\n") || before === "" ? before : `${before}\n`,
      after.endsWith("\n") || after === "" ? after : `${after}\n`,
    );
    expect(bound).toBeLessThanOrEqual(outcome.diff.linesAdded + outcome.diff.linesRemoved);
  }
});

it("counts every line one version holds and the other lacks", () => {
  expect(editLengthLowerBound("a\nb\nb\n", "b\nc\n")).toBe(3);
  expect(editLengthLowerBound("a\nb\n", "b\na\n")).toBe(0);
});
