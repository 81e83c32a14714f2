// A share page's render time, predicted from a cheap measure of its markdown, so that a page bound to run past
// the render's time limit is shown as text at once instead of holding a worker for the whole limit. The parser
// matches each `]` against the open brackets of its paragraph, which makes a paragraph's cost grow with the
// square of its closing brackets (`[x]`×40,000 takes minutes); the rest grows with the text's size. The
// coefficients are about half of what the benchmark machine measures, so only a page clearly past the limit is
// refused; a page near it still runs, within the limit and the pool's fair share.

/** Milliseconds per squared closing bracket of one paragraph (measured: about 5e-5). */
const MS_PER_BRACKET_PAIR = 2.5e-5;
/** Milliseconds per character of markdown (measured: about 0.011 for prose). */
const MS_PER_CHARACTER = 5e-3;

/** A line that begins a paragraph of its own: blank, a list item or a heading. */
const BLOCK_START = /^(?:\s*$| {0,3}(?:[-*+]|\d{1,9}[.)])(?:\s|$)| {0,3}#)/;

/** What rendering `markdown` would take, in milliseconds of the benchmark machine, as a lower estimate. */
export function predictedRenderMs(markdown: string): number {
  let squares = 0;
  let inBlock = 0;
  for (const line of markdown.split("\n")) {
    if (BLOCK_START.test(line)) {
      squares += inBlock * inBlock;
      inBlock = 0;
    }
    for (let at = line.indexOf("]"); at !== -1; at = line.indexOf("]", at + 1)) inBlock += 1;
  }
  squares += inBlock * inBlock;
  return squares * MS_PER_BRACKET_PAIR + markdown.length * MS_PER_CHARACTER;
}

/** Whether a render of `markdown` would clearly run past `timeLimitMs`. */
export const renderPastLimit = (markdown: string, timeLimitMs: number): boolean =>
  predictedRenderMs(markdown) > timeLimitMs;
