// The markdown document a page is read as: YAML frontmatter, then the authored body; and its strong ETag.
import { AppError } from "../errors/app-error.ts";
import type { Seen } from "../access/seen-by.ts";
import type { PageRecord } from "./page-record.ts";
import { keysBesideService, readServiceBlock, splitFrontmatter } from "./page-frontmatter.ts";

const yamlScalar = (value: string | null): string => (value === null ? "null" : JSON.stringify(value));

/**
 * Only from a record shaped for the reader (seenBy): the frontmatter names no folder they cannot view. A page whose
 * markdown starts with its own frontmatter shows one block: the service's fields, then the page's other keys.
 */
export function renderPageDocument(page: Seen<PageRecord>, markdown: string): string {
  const frontmatter = [
    `id: ${page.id}`,
    `title: ${yamlScalar(page.title)}`,
    `icon: ${yamlScalar(page.icon)}`,
    `parentId: ${yamlScalar(page.parentId)}`,
    `folderPath: ${yamlScalar(page.folderPath)}`,
    `ownerId: ${page.ownerId}`,
    `createdAt: ${yamlScalar(page.createdAt)}`,
    `updatedAt: ${yamlScalar(page.updatedAt)}`,
  ];
  const own = splitFrontmatter(markdown);
  const kept = own ? keysBesideService(own.yaml) : null;
  if (own && kept !== null) {
    if (kept !== "") frontmatter.push(kept);
    return `---\n${frontmatter.join("\n")}\n---\n${own.body}`;
  }
  return `---\n${frontmatter.join("\n")}\n---\n${markdown}`;
}

/**
 * The body a client sent back: the service's fields leave the leading frontmatter block, the page's other keys
 * stay as its own frontmatter. A leading block that cannot be read (not a YAML mapping, over the bounds: an alias
 * bomb, a deep nesting) is refused by name rather than dropped or half-read: sent as JSON `{markdown}`, the text
 * is stored as written.
 */
export function stripFrontmatter(document: string): string {
  const sent = splitFrontmatter(document);
  if (!sent) return document;
  const read = readServiceBlock(sent.yaml);
  if ("problem" in read)
    throw new AppError(
      "validation_failed",
      `body: ${read.problem}; send the markdown as JSON {"markdown": "..."} to store it as written`,
    );
  return read.kept ? `---\n${read.kept}\n---\n${sent.body}` : sent.body;
}

export function etagOf(page: Pick<PageRecord, "id" | "revision">): string {
  return `"${page.id}.${page.revision}"`;
}

/** The revision an If-Match header names for this page; `*` names the current one. */
export function revisionFromIfMatch(header: string | undefined, page: Pick<PageRecord, "id" | "revision">): number {
  if (header === undefined || header.trim() === "") {
    throw new AppError("precondition_required", "send If-Match with the ETag from GET /pages/{pageId}/content");
  }
  const tags = header.split(",").map((tag) => tag.trim());
  if (tags.includes("*")) return page.revision;
  for (const tag of tags) {
    const match = /^"([0-9a-f-]{36})\.(\d+)"$/.exec(tag);
    if (match && match[1] === page.id) return Number(match[2]);
  }
  throw new AppError("precondition_failed", "If-Match does not name a revision of this page; fetch it again");
}
