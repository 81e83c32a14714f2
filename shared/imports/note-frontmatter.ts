// A note's YAML frontmatter read for the page: `title` and `icon` (or `emoji`) become page fields, the other
// keys stay in the markdown. Frontmatter is the caller's input, so reading it is bounded: a block over
// FRONTMATTER_MAX_CHARS is not parsed, aliases expand at most FRONTMATTER_MAX_ALIASES times (an alias bomb,
// `&a [x, x]` then `[*a, *a]` nested, otherwise grows exponentially), and whatever the parser refuses or throws
// leaves the block as it was written, reported.
import { parseDocument } from "yaml";

const FRONTMATTER_MAX_CHARS = 64 * 1024;
const FRONTMATTER_MAX_ALIASES = 100;

export interface ReadFrontmatter {
  readonly title: string | null;
  readonly icon: string | null;
  /** The frontmatter block to keep in the markdown (`---` lines included), or null when nothing is left. */
  readonly block: string | null;
  /** Why the block was kept as written, or null when it was read. */
  readonly problem: string | null;
}

function stringField(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

const keptAsText = (source: string, problem: string): ReadFrontmatter => ({
  title: null,
  icon: null,
  block: `---\n${source}\n---`,
  problem,
});

export function readFrontmatter(source: string): ReadFrontmatter {
  if (source.length > FRONTMATTER_MAX_CHARS)
    return keptAsText(source, `its frontmatter is over ${FRONTMATTER_MAX_CHARS} characters and was kept as text`);
  try {
    const document = parseDocument(source);
    if (document.errors.length > 0) return keptAsText(source, "its frontmatter is not valid YAML and was kept as text");
    const data: unknown = document.toJS({ maxAliasCount: FRONTMATTER_MAX_ALIASES });
    if (data === null || typeof data !== "object" || Array.isArray(data))
      return { title: null, icon: null, block: source.trim() === "" ? null : `---\n${source}\n---`, problem: null };
    const fields = new Map(Object.entries(data));
    const title = stringField(fields.get("title"));
    const icon = stringField(fields.get("icon")) ?? stringField(fields.get("emoji"));
    for (const key of ["title", "icon", "emoji"]) document.delete(key);
    const rest =
      document.contents && "items" in document.contents && document.contents.items.length > 0
        ? document.toString().trimEnd()
        : null;
    return { title, icon, block: rest === null ? null : `---\n${rest}\n---`, problem: null };
  } catch {
    // The parser throws on what it refuses to expand (too many aliases): that is a property of the input.
    return keptAsText(
      source,
      "its frontmatter could not be read (too many aliases or too deeply nested) and was kept as text",
    );
  }
}
