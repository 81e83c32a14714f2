// The cheap measure that shows a share page as text before it takes a worker: only pages clearly past the limit.
import { expect, it } from "vitest";
import { predictedRenderMs, renderPastLimit } from "../../shared/share-links/render/render-cost.ts";

const LIMIT_MS = 10_000;

it("predicts a paragraph of 40,000 bracketed words past the render limit", () => {
  expect(renderPastLimit(`${"[x]".repeat(40_000)} and a suffix`, LIMIT_MS)).toBe(true);
  expect(renderPastLimit("]".repeat(40_000), LIMIT_MS)).toBe(true);
});

it("lets ordinary large pages render: links, task lists, prose", () => {
  expect(renderPastLimit("- [x] done, see [the plan](/s/x/pages/1)\n".repeat(5_000), LIMIT_MS)).toBe(false);
  expect(
    renderPastLimit("A sentence of prose, [linked](https://example.com) now and then.\n\n".repeat(6_000), LIMIT_MS),
  ).toBe(false);
  expect(renderPastLimit("[x]".repeat(5_000), LIMIT_MS)).toBe(false);
});

it("counts a paragraph's brackets once it spans lines, and not across paragraphs", () => {
  const oneParagraph = predictedRenderMs("[x]\n".repeat(10_000));
  const separate = predictedRenderMs("[x]\n\n".repeat(10_000));
  expect(oneParagraph).toBeGreaterThan(10 * separate);
});
