// A page's markdown written back for a vault: links to exported pages become wikilinks (`[[path#anchor|text]]`),
// images exported as attachments become embeds (`![[name]]`), links to attached files wikilinks to the files
// (`[[report.pdf]]`, `[[report.pdf|text]]`), links to what is not exported become absolute
// URLs. Written so that the import reads each back to the same markdown: a link text or alt the wikilink form
// cannot carry exactly falls back to a markdown link to the file, which the import rewrites too. Pure.
import type { Nodes } from "mdast";
import { escapeMarkdownText } from "../images/image.resource.ts";
import { headingSlug, parseNoteMarkdown } from "../imports/vault-note.ts";
import { applyReplacements, type Replacement } from "../imports/replacements.ts";
import { unmaskWikilinks } from "../imports/wikilinks.ts";

const PAGE_URL = /^\/api\/v1\/pages\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:#(.*))?$/;
const IMAGE_URL = /^\/api\/v1\/images\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
const ATTACHMENT_URL = /^\/api\/v1\/attachments\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
const ESCAPED = /\\([\\[\]`*_~<&!|])/g;

export type FoundLink =
  | {
      readonly kind: "page";
      readonly id: string;
      readonly anchor: string | null;
      readonly start: number;
      readonly end: number;
      readonly text: string;
    }
  | { readonly kind: "image"; readonly id: string; readonly start: number; readonly end: number; readonly alt: string }
  | {
      readonly kind: "imageLink";
      readonly id: string;
      readonly start: number;
      readonly end: number;
      readonly text: string;
    }
  | {
      readonly kind: "attachment";
      readonly id: string;
      readonly start: number;
      readonly end: number;
      readonly text: string;
    };

/** The links to pages, images and attachments of this service a page's markdown holds, outside code and raw HTML. */
export function findLinks(markdown: string): FoundLink[] {
  const found: FoundLink[] = [];
  // Parsing is most of an export's work: a page that names no page or image of this service skips it.
  if (!markdown.includes("/api/v1/")) return found;
  const visit = (node: Nodes): void => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    switch (node.type) {
      case "code":
      case "inlineCode":
      case "html":
      case "yaml":
        return;
      case "image": {
        const image = IMAGE_URL.exec(unmaskWikilinks(node.url));
        if (image?.[1] && start !== undefined && end !== undefined)
          found.push({ kind: "image", id: image[1], start, end, alt: unmaskWikilinks(node.alt ?? "") });
        return;
      }
      case "link": {
        const url = unmaskWikilinks(node.url);
        const from = node.children[0]?.position?.start.offset;
        const to = node.children.at(-1)?.position?.end.offset;
        if (start === undefined || end === undefined || from === undefined || to === undefined) break;
        const text = markdown.slice(from, to);
        const page = PAGE_URL.exec(url);
        if (page?.[1]) {
          found.push({ kind: "page", id: page[1], anchor: page[2] ?? null, start, end, text });
          return;
        }
        const image = IMAGE_URL.exec(url);
        if (image?.[1]) {
          found.push({ kind: "imageLink", id: image[1], start, end, text });
          return;
        }
        const attachment = ATTACHMENT_URL.exec(url);
        if (attachment?.[1]) {
          found.push({ kind: "attachment", id: attachment[1], start, end, text });
          return;
        }
        break;
      }
      default:
        break;
    }
    if ("children" in node) for (const child of node.children) visit(child);
  };
  visit(parseNoteMarkdown(markdown));
  return found;
}

export interface VaultTargets {
  /** The vault path, without `.md`, of an exported page; null when the page is not in the export. */
  page(id: string): string | null;
  /** The vault path of an exported image (`attachments/photo.png`); null when it is not exported. */
  image(id: string): string | null;
  /** The vault path of an exported attachment (`attachments/report.pdf`); null when it is not exported. */
  attachment(id: string): string | null;
  /** The service's origin (`https://host`), for links to what the export does not hold. */
  readonly origin: string;
}

/** The literal text a link's escaped markdown text stands for, or null when it holds other markup. */
function literal(raw: string): string | null {
  const text = raw.replace(ESCAPED, "$1");
  return escapeMarkdownText(text) === raw ? text : null;
}

/** Whether a wikilink's alias holds `text` exactly as the import reads it back (trimmed, up to the first `|`). */
const fitsAlias = (text: string): boolean => text !== "" && text.trim() === text && !/[[\]|\n\r]/.test(text);
/** A wikilink's target also ends at `#` (a heading) and `^` (a block). */
const fitsTarget = (name: string): boolean => fitsAlias(name) && !/[#^]/.test(name);

/**
 * A link destination the import decodes back (decodeURI) to `target`: `%`, spaces and parentheses encoded. Not
 * `<…>`, whose `>` could close an HTML declaration (`<!x`) the link text opens.
 */
const destination = (target: string): string =>
  target.replace(/[% ()]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);

const baseName = (path: string): string => path.slice(path.lastIndexOf("/") + 1);
const stem = (name: string): string => name.replace(/\.[^.]+$/, "");

/** Inside a table row a wikilink's pipe is written `\|`, as Obsidian does, so it does not split the cell. */
function inTableRow(markdown: string, offset: number): boolean {
  const lineStart = markdown.lastIndexOf("\n", offset - 1) + 1;
  return markdown.slice(lineStart, offset).trimStart().startsWith("|");
}

export function toVaultMarkdown(markdown: string, links: readonly FoundLink[], targets: VaultTargets): string {
  const replacements: Replacement[] = links.map((link): Replacement => {
    const replace = (text: string): Replacement => ({ start: link.start, end: link.end, text });
    const pipe = inTableRow(markdown, link.start) ? "\\|" : "|";
    switch (link.kind) {
      case "page": {
        const anchorPart = link.anchor === null ? "" : `#${link.anchor}`;
        const path = targets.page(link.id);
        if (path === null) return replace(`[${link.text}](${targets.origin}/api/v1/pages/${link.id}${anchorPart})`);
        const text = literal(link.text);
        const anchorFits = link.anchor === null || (link.anchor !== "" && headingSlug(link.anchor) === link.anchor);
        if (text !== null && fitsAlias(text) && anchorFits)
          return replace(`[[${path}${anchorPart}${text === path && !anchorPart ? "" : `${pipe}${text}`}]]`);
        return replace(`[${link.text}](${destination(`${path}.md${anchorPart}`)})`);
      }
      case "image": {
        const path = targets.image(link.id);
        if (path === null)
          return replace(`![${escapeMarkdownText(link.alt)}](${targets.origin}/api/v1/images/${link.id})`);
        const name = baseName(path);
        if (link.alt === stem(name) && fitsTarget(name)) return replace(`![[${name}]]`);
        return replace(`![${escapeMarkdownText(link.alt)}](${destination(path)})`);
      }
      case "imageLink": {
        const path = targets.image(link.id);
        if (path === null) return replace(`[${link.text}](${targets.origin}/api/v1/images/${link.id})`);
        const name = baseName(path);
        const text = literal(link.text);
        if (text !== null && fitsAlias(text) && fitsTarget(name))
          return replace(`[[${name}${text === name ? "" : `${pipe}${text}`}]]`);
        return replace(`[${link.text}](${destination(path)})`);
      }
      case "attachment": {
        const path = targets.attachment(link.id);
        if (path === null) return replace(`[${link.text}](${targets.origin}/api/v1/attachments/${link.id})`);
        const name = baseName(path);
        const text = literal(link.text);
        if (text !== null && fitsAlias(text) && fitsTarget(name))
          return replace(`[[${name}${text === name ? "" : `${pipe}${text}`}]]`);
        return replace(`[${link.text}](${destination(path)})`);
      }
    }
  });
  return applyReplacements(markdown, replacements);
}
