// One note of a vault made into a page: its frontmatter read with a YAML parser (title, icon or emoji become
// page fields, the rest stays in the markdown) and its links found by a markdown parser, so that a link inside
// a code block or code span stays text. Wikilinks to notes become markdown links to the imported pages, embedded
// images become the uploaded images' markdown; a link that names nothing imported stays as written and is
// reported. Pure: the resolver decides what each target is.
import type { Nodes, Root } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import { frontmatter } from "micromark-extension-frontmatter";
import { escapeMarkdownText } from "../images/image.resource.ts";
import { readFrontmatter } from "./note-frontmatter.ts";
import { applyReplacements, type Replacement } from "./replacements.ts";
import { maskWikilinks, unmaskWikilinks, WIKILINK } from "./wikilinks.ts";

export interface NoteResolver {
  /** The URL of the page a note target names (`Note`, `folder/Note`, `Note.md`), or null. */
  page(target: string): string | null;
  /** The markdown of the image a target names, embedded in this note with `alt`, or null. */
  image(target: string, alt: string, relative: boolean): { path: string; markdown: string } | null;
}

export interface RewrittenNote {
  readonly title: string | null;
  readonly icon: string | null;
  readonly markdown: string;
  /** Links to imported pages made. */
  readonly backlinks: number;
  /** Paths of the imported images this note embeds, each once. */
  readonly images: string[];
  /** Problems worth telling the user, without the note's path. */
  readonly problems: string[];
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/|#)/i;
const IMAGE_FILE = /\.(png|jpe?g|gif|webp)$/i;

/** A heading's anchor as markdown renderers make it: lower case, punctuation dropped, spaces as dashes. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s+/g, "-");
}

function parse(markdown: string): Root {
  return fromMarkdown(maskWikilinks(markdown) ?? markdown, { extensions: [frontmatter(["yaml"])], mdastExtensions: [frontmatterFromMarkdown(["yaml"])] });
}

function offsets(node: Nodes): { start: number; end: number } | null {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  return start === undefined || end === undefined ? null : { start, end };
}

function safeDecode(url: string): string {
  try {
    return decodeURI(url);
  } catch {
    return url;
  }
}

export function rewriteNote(markdown: string, resolver: NoteResolver): RewrittenNote {
  const problems: string[] = [];
  const replacements: Replacement[] = [];
  const images = new Set<string>();
  let backlinks = 0;
  let title: string | null = null;
  let icon: string | null = null;

  const wikilink = (match: RegExpExecArray, base: number): void => {
    const [whole, bang, inner] = match;
    if (inner === undefined) return;
    const start = base + match.index;
    const [targetPart = "", alias] = inner.split("|", 2).map((part) => part.trim());
    const [name = "", heading] = targetPart.split("#", 2).map((part) => part.trim());
    if (bang === "!" && IMAGE_FILE.test(name)) {
      const image = resolver.image(name, name.replace(/^.*\//, "").replace(IMAGE_FILE, ""), false);
      if (image) {
        images.add(image.path);
        replacements.push({ start, end: start + whole.length, text: image.markdown });
      } else {
        problems.push(`embed ${whole} names no imported image`);
      }
      return;
    }
    const url = name === "" ? null : resolver.page(name);
    if (!url) {
      problems.push(`link ${whole} names no imported note`);
      return;
    }
    const anchor = heading && !heading.startsWith("^") ? `#${headingSlug(heading)}` : "";
    const text = alias || (heading && !heading.startsWith("^") ? `${name} > ${heading}` : name);
    replacements.push({ start, end: start + whole.length, text: `[${escapeMarkdownText(text)}](${url}${anchor})` });
    backlinks += 1;
  };

  const visit = (node: Nodes): void => {
    const at = offsets(node);
    switch (node.type) {
      case "code":
      case "inlineCode":
      case "html":
        return; // code and raw HTML keep what they hold, links included
      case "yaml": {
        if (!at) return;
        const read = readFrontmatter(unmaskWikilinks(node.value));
        ({ title, icon } = read);
        if (read.problem) problems.push(read.problem);
        replacements.push({ start: at.start, end: at.end, text: read.block ?? "" });
        return;
      }
      case "text": {
        if (!at) return;
        const source = markdown.slice(at.start, at.end);
        for (const match of source.matchAll(WIKILINK)) wikilink(match as RegExpExecArray, at.start);
        return;
      }
      case "image": {
        const url = unmaskWikilinks(node.url);
        if (!at || EXTERNAL.test(url)) return;
        const image = resolver.image(safeDecode(url), unmaskWikilinks(node.alt ?? ""), true);
        if (image) {
          images.add(image.path);
          replacements.push({ start: at.start, end: at.end, text: image.markdown });
        } else {
          problems.push(`image ${JSON.stringify(url)} names no imported image`);
        }
        return;
      }
      case "link": {
        const first = node.children[0];
        const last = node.children.at(-1);
        const from = first ? offsets(first) : null;
        const to = last ? offsets(last) : null;
        const target = unmaskWikilinks(node.url);
        if (at && from && to && !EXTERNAL.test(target) && /\.md$/i.test(safeDecode(target))) {
          const url = resolver.page(safeDecode(target));
          if (url) {
            replacements.push({ start: at.start, end: at.end, text: `[${markdown.slice(from.start, to.end)}](${url})` });
            backlinks += 1;
            return;
          }
          problems.push(`link to ${JSON.stringify(target)} names no imported note`);
        }
        break;
      }
      default:
        break;
    }
    if ("children" in node) for (const child of node.children) visit(child);
  };
  visit(parse(markdown));

  let rewritten = applyReplacements(markdown, replacements);
  // A frontmatter block that is now empty leaves the line break after it.
  if (rewritten.startsWith("\n") && markdown.startsWith("---")) rewritten = rewritten.replace(/^\n+/, "");
  return { title, icon, markdown: rewritten, backlinks, images: [...images], problems };
}
