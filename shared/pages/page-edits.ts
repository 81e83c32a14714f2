// Exact-span edits of a page's markdown: each edit names a text that must occur exactly once and what replaces
// it. Edits apply in order, each to the result of the ones before it, and all or none: a span found zero or
// several times refuses the whole set, saying which edit and how often it was found.
import { AppError } from "../errors/app-error.ts";

export interface SpanEdit {
  /** The exact text to replace; it must occur exactly once in the markdown as the earlier edits left it. */
  readonly oldText: string;
  readonly newText: string;
}

/** Occurrences of `span` in `text`, counted up to `stopAt` (two is enough to refuse). */
function occurrences(text: string, span: string, stopAt: number): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(span); at !== -1 && found.length < stopAt; at = text.indexOf(span, at + 1)) found.push(at);
  return found;
}

export function applySpanEdits(markdown: string, edits: readonly SpanEdit[], maxChars: number): string {
  let text = markdown;
  edits.forEach((edit, index) => {
    const where = `edits[${index}].oldText`;
    if (edit.oldText === "") throw new AppError("validation_failed", `${where}: must not be empty`);
    const found = occurrences(text, edit.oldText, 2);
    const [at] = found;
    if (at === undefined)
      throw new AppError(
        "validation_failed",
        `${where}: not found in the page's markdown; read the page again and quote it exactly`,
      );
    if (found.length > 1)
      throw new AppError(
        "validation_failed",
        `${where}: found several times in the page's markdown; quote more of the text around it so it occurs once`,
      );
    text = text.slice(0, at) + edit.newText + text.slice(at + edit.oldText.length);
  });
  // Two NFC texts side by side are not always NFC (a combining mark at the seam): the stored body is.
  const result = text.normalize("NFC");
  if (result.length > maxChars)
    throw new AppError("validation_failed", `edits: the page's markdown would be longer than ${maxChars} characters`);
  return result;
}
