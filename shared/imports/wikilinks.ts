// How wikilinks (`[[Note]]`, `![[image.png]]`) are found in a note, and how they are hidden from the markdown
// parser. micromark resolves every `[` … `]` pair against the events of its whole paragraph, so a paragraph of
// tens of thousands of `[[T]]` costs quadratic time to parse; with their brackets masked, wikilinks are plain
// text to it, and parsing stays linear. The markup characters inside a wikilink are masked too: in Obsidian a
// wikilink is read before emphasis, code or HTML, so `[[a_b_c]]` or `[[x*y|*z*]]` must stay one text node.

/** A wikilink or embed on one line; the target holds no bracket. */
export const WIKILINK = /(!?)\[\[([^[\]\n]+?)\]\]/g;

/**
 * Stand-ins of the same length: control characters, which a note that reaches the parser never holds (the
 * import refuses U+0000 to U+0008), one for each character masked, so unmasking gives back what was written.
 */
const STAND_INS: ReadonlyMap<string, string> = new Map([
  ["[", "\u0001"],
  ["]", "\u0002"],
  ["*", "\u0003"],
  ["_", "\u0004"],
  ["`", "\u0005"],
  ["<", "\u0006"],
  ["&", "\u0007"],
  ["\\", "\u0008"],
]);
const ORIGINALS: ReadonlyMap<string, string> = new Map(
  [...STAND_INS].map(([original, standIn]) => [standIn, original]),
);
const MARKUP = /[*_`<&\\]/g;
const STAND_IN = /[\u0001-\u0008]/g;

/**
 * The markdown with every wikilink's brackets and markup replaced by stand-ins of the same length, so every
 * offset the parser reports is an offset in the original; null when the note already holds a stand-in character.
 */
export function maskWikilinks(markdown: string): string | null {
  if (/[\u0001-\u0008]/.test(markdown)) return null;
  return markdown.replace(
    WIKILINK,
    (_whole, bang: string, inner: string) =>
      `${bang}\u0001\u0001${inner.replace(MARKUP, (character) => STAND_INS.get(character) ?? character)}\u0002\u0002`,
  );
}

/** A value the parser read from masked markdown (a frontmatter block, a link's URL) as the note wrote it. */
export function unmaskWikilinks(text: string): string {
  return text.replace(STAND_IN, (character) => ORIGINALS.get(character) ?? character);
}
