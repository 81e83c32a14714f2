// A cheap lower bound on a line diff's edit length, so that a diff bound to end in diff_too_large is refused
// before it takes a worker: every line of one version that the other lacks (counted with repeats) must be removed
// or added by any edit script, so their number never exceeds what jsdiff counts against maxEditLength. One pass
// over each text, linear in its size; a bound past the limit refuses nothing a full diff would have answered.

/** The lines as jsdiff's line diff cuts them: each with its line break; an empty text has none. */
const linesOf = (text: string): string[] => (text === "" ? [] : text.split(/(?<=\n)/));

/** Lines in one version and not the other, repeats counted: at most the diff's edit length. */
export function editLengthLowerBound(before: string, after: string): number {
  const surplus = new Map<string, number>();
  for (const line of linesOf(before)) surplus.set(line, (surplus.get(line) ?? 0) + 1);
  for (const line of linesOf(after)) surplus.set(line, (surplus.get(line) ?? 0) - 1);
  let bound = 0;
  for (const count of surplus.values()) bound += Math.abs(count);
  return bound;
}
