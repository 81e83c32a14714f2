// File names an export gives pages, folders and images: valid on Windows, macOS and Linux and in Obsidian's
// links, stable (the same pages get the same names on every export) and unique within their directory, compared
// as the systems vaults live on compare them (without case, in NFC). The real title travels in frontmatter
// whenever the file name cannot carry it.
import { withoutZeroWidth } from "../kernel/name-rules.ts";

/**
 * Refused by Windows (`/ \ : * ? " < > |`, controls), or by Obsidian in a link (`# ^ [ ]`), and bidirectional
 * controls, which make a name read as another (titles written before names refused them may hold some).
 */
const UNSAFE = /[/\\:*?"<>|#^[\]\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;
/** Windows' reserved device names, with or without an extension. */
const RESERVED = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\..*)?$/i;
/** Bytes of UTF-8 a name keeps before its counter and extension: file systems allow 255. */
const MAX_NAME_BYTES = 180;

function truncatedToBytes(name: string, max: number): string {
  let bytes = 0;
  let kept = "";
  for (const character of name) {
    bytes += Buffer.byteLength(character, "utf8");
    if (bytes > max) break;
    kept += character;
  }
  return kept;
}

/** `name` as a file or directory name: unsafe characters as `_`, no zero-width characters, no leading dot, no trailing dot or space. */
export function safeFileName(name: string): string {
  let safe = truncatedToBytes(withoutZeroWidth(name).normalize("NFC").replace(UNSAFE, "_").trim(), MAX_NAME_BYTES)
    .replace(/[. ]+$/, "")
    .trim();
  // A leading dot hides the file in Obsidian and in shells.
  if (safe.startsWith(".")) safe = `_${safe.slice(1)}`;
  if (safe === "") return "Untitled";
  return RESERVED.test(safe) ? `${safe}_` : safe;
}

/** Hands out names within one directory: the first asker gets the safe name, later ones `name (2)`, `name (3)`. */
export class DirectoryNames {
  private readonly taken = new Set<string>();

  /** A unique name for `wanted` with `extension` (`.md`, `.png`), as file name and as the stem before it. */
  claim(wanted: string, extension: string): string {
    const base = safeFileName(wanted);
    for (let counter = 1; ; counter++) {
      const stem = counter === 1 ? base : `${base} (${counter})`;
      const key = `${stem}${extension}`.toLowerCase();
      if (!this.taken.has(key)) {
        this.taken.add(key);
        return stem;
      }
    }
  }
}
