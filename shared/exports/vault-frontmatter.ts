// The frontmatter an exported note starts with: the page's own keys (as the import kept them) with `title` and
// `icon` first where the file name cannot carry them, so that the import reads the same title and icon back.
// Pure.
import { keysBesideService, splitFrontmatter } from "../pages/page-frontmatter.ts";

/** `title` is null when the file name says it; `icon` null when the page has none. */
export function withVaultFrontmatter(markdown: string, fields: { title: string | null; icon: string | null }): string {
  const lines = [
    ...(fields.title === null ? [] : [`title: ${JSON.stringify(fields.title)}`]),
    ...(fields.icon === null ? [] : [`icon: ${JSON.stringify(fields.icon)}`]),
  ];
  if (lines.length === 0) return markdown;
  const own = splitFrontmatter(markdown);
  // A block the page holds as readable YAML takes the fields; one kept as text stays after a block of their own.
  if (own && own.yaml.trim() !== "" && keysBesideService(own.yaml) !== null)
    return `---\n${lines.join("\n")}\n${own.yaml}\n---\n${own.body}`;
  return `---\n${lines.join("\n")}\n---\n${markdown}`;
}
