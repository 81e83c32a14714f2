// Builds a text from its source and the spans to replace in it, in one pass: the cost is the text's length
// plus the replacements', however many there are (splicing one replacement at a time would copy the text once
// per replacement).

export interface Replacement {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** `source` with each span replaced; spans must not overlap. */
export function applyReplacements(source: string, replacements: readonly Replacement[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const { start, end, text } of [...replacements].sort((a, b) => a.start - b.start)) {
    parts.push(source.slice(at, start), text);
    at = end;
  }
  parts.push(source.slice(at));
  return parts.join("");
}
