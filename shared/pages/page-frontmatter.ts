// A page's own frontmatter (an imported note's `tags`, `aliases`…) and the service's fields in one block: the
// content document shows one frontmatter block, the service's fields first and winning, the page's other keys
// kept; a document sent back loses the service's fields and keeps the page's. Reading is bounded as the import
// reads frontmatter (size and aliases); a block the parser refuses is left as it is.
import { parseDocument } from "yaml";

/** The fields the service writes into a page's document (GET /pages/{id}/content). */
const SERVICE_FIELDS = ["id", "title", "icon", "parentId", "folderPath", "ownerId", "createdAt", "updatedAt"] as const;

const MAX_CHARS = 64 * 1024;
const MAX_ALIASES = 100;
const LEADING_BLOCK = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/;

export interface SplitDocument {
  /** The YAML between the `---` lines. */
  readonly yaml: string;
  readonly body: string;
}

export function splitFrontmatter(markdown: string): SplitDocument | null {
  const match = LEADING_BLOCK.exec(markdown);
  return match ? { yaml: match[1] ?? "", body: markdown.slice(match[0].length) } : null;
}

/** The block's keys other than the service's (empty when none are left), or why the block cannot be read. */
export function readServiceBlock(yaml: string): { kept: string } | { problem: string } {
  if (yaml.length > MAX_CHARS) return { problem: `its frontmatter is over ${MAX_CHARS} characters` };
  try {
    const document = parseDocument(yaml);
    if (document.errors.length > 0) return { problem: "its frontmatter is not valid YAML" };
    const data: unknown = document.toJS({ maxAliasCount: MAX_ALIASES });
    if (data === null || typeof data !== "object" || Array.isArray(data))
      return { problem: "its frontmatter is not a YAML mapping" };
    for (const key of SERVICE_FIELDS) document.delete(key);
    const contents = document.contents;
    return { kept: contents && "items" in contents && contents.items.length > 0 ? document.toString().trimEnd() : "" };
  } catch {
    // The parser throws on what it refuses to expand (too many aliases) and on nesting deeper than it recurses.
    return { problem: `its frontmatter could not be read (over ${MAX_ALIASES} aliases or too deeply nested)` };
  }
}

/**
 * The block's keys other than the service's, as YAML (empty when none are left); null when the block is not a
 * YAML mapping that can be read within the bounds.
 */
export function keysBesideService(yaml: string): string | null {
  const read = readServiceBlock(yaml);
  return "kept" in read ? read.kept : null;
}
