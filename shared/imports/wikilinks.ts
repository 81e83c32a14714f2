// How wikilinks (`[[Note]]`, `![[image.png]]`) are found in a note, and how they are hidden from the markdown
// parser. micromark resolves every `[` … `]` pair against the events of its whole paragraph, so a paragraph of
// tens of thousands of `[[T]]` costs quadratic time to parse; with their brackets masked, wikilinks are plain
// text to it, and parsing stays linear.

/** A wikilink or embed on one line; the target holds no bracket. */
export const WIKILINK = /(!?)\[\[([^[\]\n]+?)\]\]/g;

/** Stand-ins for a wikilink's brackets: control characters, which a note that reaches the parser never holds. */
const OPEN = "\u0001";
const CLOSE = "\u0002";

/**
 * The markdown with every wikilink's brackets replaced by stand-ins of the same length, so every offset the
 * parser reports is an offset in the original; null when the note already holds a stand-in character.
 */
export function maskWikilinks(markdown: string): string | null {
  if (markdown.includes(OPEN) || markdown.includes(CLOSE)) return null;
  return markdown.replace(WIKILINK, (_whole, bang: string, inner: string) => `${bang}${OPEN}${OPEN}${inner}${CLOSE}${CLOSE}`);
}

/** A value the parser read from masked markdown (a frontmatter block, a link's URL) as the note wrote it. */
export function unmaskWikilinks(text: string): string {
  return text.replaceAll(OPEN, "[").replaceAll(CLOSE, "]");
}
