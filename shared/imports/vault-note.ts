// One note of a vault made into a page: its frontmatter read with a YAML parser (title, icon or emoji become
// page fields, the rest stays in the markdown) and its links found by a markdown parser, so that a link inside
// a code block or code span stays text. Wikilinks to notes become markdown links to the imported pages, embedded
// images become the uploaded images' markdown, links and embeds of any other file (`[[paper.pdf]]`,
// `![[talk.mp3]]`, `[the paper](paper.pdf)`) links to the attachment the file becomes; a link that names nothing
// imported stays as written and is reported. Pure: the resolver decides what each target is.
import type { Nodes, Root } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import { frontmatter } from "micromark-extension-frontmatter";
import { escapeMarkdownText, imageMarkdown } from "../images/image.resource.ts";
import { readFrontmatter } from "./note-frontmatter.ts";
import { applyReplacements, type Replacement } from "./replacements.ts";
import { maskWikilinks, unmaskWikilinks, WIKILINK } from "./wikilinks.ts";

export interface NoteResolver {
  /** The URL of the page a note target names (`Note`, `folder/Note`, `Note.md`), or null. */
  page(target: string): string | null;
  /** The imported image a target names (its path in the vault and the URL it is served at), or null. */
  image(target: string, relative: boolean): { path: string; url: string } | null;
  /** The imported file (neither note nor image) a target names, and the URL its attachment is served at, or null. */
  attachment(target: string, relative: boolean): { path: string; url: string } | null;
}

export interface RewrittenNote {
  readonly title: string | null;
  readonly icon: string | null;
  readonly markdown: string;
  /** Links to imported pages made. */
  readonly backlinks: number;
  /** Paths of the imported images this note embeds, each once. */
  readonly images: string[];
  /** Paths of the other files this note links or embeds, each once: they become its attachments. */
  readonly attachments: string[];
  /** Problems worth telling the user, without the note's path. */
  readonly problems: string[];
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/|#)/i;
const IMAGE_FILE = /\.(png|jpe?g|gif|webp)$/i;
/** A name with an extension other than a note's: a file, which only an attachment can stand for. */
const OTHER_FILE = /\.(?!md$)[A-Za-z0-9]+$/i;
/** An embed's display size (`|100` or `|100x145`): markdown has no width, so it is dropped. */
const DISPLAY_SIZE = /^\d+(?:x\d+)?$/;

/** A wikilink's inside read as Obsidian does: `\|` is a pipe escaped in a table cell, the first `|` starts the alias. */
function wikilinkParts(inner: string): { name: string; heading: string; alias: string } {
  const unescaped = inner.replaceAll("\\|", "|");
  const pipe = unescaped.indexOf("|");
  const target = pipe === -1 ? unescaped : unescaped.slice(0, pipe);
  const hash = target.indexOf("#");
  return {
    name: (hash === -1 ? target : target.slice(0, hash)).trim(),
    // `Note#A#B` names the heading B below A: the anchor is the last one.
    heading:
      hash === -1
        ? ""
        : (
            target
              .slice(hash + 1)
              .split("#")
              .at(-1) ?? ""
          ).trim(),
    alias: pipe === -1 ? "" : unescaped.slice(pipe + 1).trim(),
  };
}

/** A heading's anchor as markdown renderers make it: lower case, punctuation dropped, spaces as dashes. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s+/g, "-");
}

/** The note's markdown tree, wikilinks masked (see wikilinks.ts); offsets are the note's own. */
export function parseNoteMarkdown(markdown: string): Root {
  return fromMarkdown(maskWikilinks(markdown) ?? markdown, {
    extensions: [frontmatter(["yaml"])],
    mdastExtensions: [frontmatterFromMarkdown(["yaml"])],
  });
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
  const attachments = new Set<string>();
  let backlinks = 0;
  let title: string | null = null;
  let icon: string | null = null;

  const wikilink = (match: RegExpExecArray, base: number): void => {
    const [whole, bang, inner] = match;
    if (inner === undefined) return;
    const start = base + match.index;
    const replace = (text: string): void => {
      replacements.push({ start, end: start + whole.length, text });
    };
    const { name, heading, alias } = wikilinkParts(inner);
    const kind = bang === "!" ? "embed" : "link";
    const block = heading.startsWith("^");
    if (name === "") {
      // A heading or block of this same note: its anchor on the page.
      if (heading === "") problems.push(`${kind} ${whole} names no imported note`);
      else replace(`[${escapeMarkdownText(alias || heading)}](#${headingSlug(block ? heading.slice(1) : heading)})`);
      return;
    }
    if (IMAGE_FILE.test(name)) {
      const image = resolver.image(name, false);
      if (!image) {
        problems.push(`${kind} ${whole} names no imported image`);
        return;
      }
      images.add(image.path);
      if (bang === "!")
        replace(
          imageMarkdown(
            alias && !DISPLAY_SIZE.test(alias) ? alias : name.replace(/^.*\//, "").replace(IMAGE_FILE, ""),
            image.url,
          ),
        );
      else replace(`[${escapeMarkdownText(alias || name)}](${image.url})`);
      return;
    }
    // A file of that exact name first (`report.pdf`), then a note (`v1.2` may name `v1.2.md`), as Obsidian does.
    const file = OTHER_FILE.test(name) ? resolver.attachment(name, false) : null;
    if (file) {
      attachments.add(file.path);
      // Embedded or linked, a file becomes a link to its attachment, named by its alias or its file name.
      replace(
        `[${escapeMarkdownText(alias && !DISPLAY_SIZE.test(alias) ? alias : name.replace(/^.*\//, ""))}](${file.url})`,
      );
      return;
    }
    // A note embedded (`![[Other note]]`) becomes a link to its page, as a link to it would.
    const url = resolver.page(name);
    if (!url) {
      problems.push(
        OTHER_FILE.test(name) ? `${kind} ${whole} names no imported file` : `link ${whole} names no imported note`,
      );
      return;
    }
    const anchor = heading && !block ? `#${headingSlug(heading)}` : "";
    const text = alias || (heading && !block ? `${name} > ${heading}` : name);
    replace(`[${escapeMarkdownText(text)}](${url}${anchor})`);
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
        for (const match of source.matchAll(WIKILINK)) wikilink(match, at.start);
        return;
      }
      case "image": {
        const url = unmaskWikilinks(node.url);
        if (!at || EXTERNAL.test(url)) return;
        const target = safeDecode(url);
        const file = IMAGE_FILE.test(target) ? null : resolver.attachment(target, true);
        const image = file ? null : resolver.image(target, true);
        if (image) {
          images.add(image.path);
          replacements.push({
            start: at.start,
            end: at.end,
            text: imageMarkdown(unmaskWikilinks(node.alt ?? ""), image.url),
          });
        } else if (file) {
          attachments.add(file.path);
          replacements.push({
            start: at.start,
            end: at.end,
            text: `[${escapeMarkdownText(unmaskWikilinks(node.alt ?? ""))}](${file.url})`,
          });
        } else {
          problems.push(`image ${JSON.stringify(url)} names no imported ${IMAGE_FILE.test(target) ? "image" : "file"}`);
        }
        return;
      }
      case "link": {
        const first = node.children[0];
        const last = node.children.at(-1);
        const from = first ? offsets(first) : null;
        const to = last ? offsets(last) : null;
        const [target = "", fragment] = unmaskWikilinks(node.url).split("#", 2);
        if (at && from && to && !EXTERNAL.test(target) && IMAGE_FILE.test(safeDecode(target))) {
          const image = resolver.image(safeDecode(target), true);
          if (image) {
            images.add(image.path);
            replacements.push({
              start: at.start,
              end: at.end,
              text: `[${markdown.slice(from.start, to.end)}](${image.url})`,
            });
            return;
          }
          problems.push(`link to ${JSON.stringify(target)} names no imported image`);
        }
        if (
          at &&
          from &&
          to &&
          !EXTERNAL.test(target) &&
          OTHER_FILE.test(safeDecode(target)) &&
          !IMAGE_FILE.test(safeDecode(target))
        ) {
          const file = resolver.attachment(safeDecode(target), true);
          if (file) {
            attachments.add(file.path);
            replacements.push({
              start: at.start,
              end: at.end,
              text: `[${markdown.slice(from.start, to.end)}](${file.url})`,
            });
            return;
          }
          problems.push(`link to ${JSON.stringify(target)} names no imported file`);
        }
        if (at && from && to && !EXTERNAL.test(target) && /\.md$/i.test(safeDecode(target))) {
          const url = resolver.page(safeDecode(target));
          const anchor = fragment ? `#${headingSlug(safeDecode(fragment))}` : "";
          if (url) {
            replacements.push({
              start: at.start,
              end: at.end,
              text: `[${markdown.slice(from.start, to.end)}](${url}${anchor})`,
            });
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
  visit(parseNoteMarkdown(markdown));

  let rewritten = applyReplacements(markdown, replacements);
  // A frontmatter block that is now empty leaves the line break after it.
  if (rewritten.startsWith("\n") && markdown.startsWith("---")) rewritten = rewritten.replace(/^\n+/, "");
  return { title, icon, markdown: rewritten, backlinks, images: [...images], attachments: [...attachments], problems };
}
