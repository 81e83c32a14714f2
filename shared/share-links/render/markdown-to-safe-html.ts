// A shared page's markdown as anyone may read it, in its two forms: parsed by micromark (CommonMark and GFM) into
// mdast, where one rule keeps it within the link (`keepWithinLink`: raw HTML dropped, reference links resolved,
// links and images pointed at the share link's own routes, wikilinks and links to anything else turned into their
// text), then either written back as markdown, or turned into hast, cleaned by hast-util-sanitize (GitHub's
// rules: no script, no event handlers, no style, only http, https, mailto and a few other protocols in href, http
// and https in src) and serialised. Pure and synchronous: it runs in a worker thread (render-shared-page.ts),
// never on the server's event loop.
import type { Element, Root as HastRoot } from "hast";
import { defaultSchema, sanitize, type Schema } from "hast-util-sanitize";
import { toHtml } from "hast-util-to-html";
import type { Definition, Nodes, PhrasingContent, Root as MdastRoot, RootContent, Text } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown, gfmToMarkdown } from "mdast-util-gfm";
import { toHast } from "mdast-util-to-hast";
import { toMarkdown } from "mdast-util-to-markdown";
import { gfm } from "micromark-extension-gfm";
import { SKIP, visit } from "unist-util-visit";

export interface RenderOptions {
  /** The link's own path, `/s/<secret>`: what page links and images are rewritten under. */
  readonly linkBase: string;
  /** Pages a reader of the link may open, by lower-case id, with their titles (for wikilinks). */
  readonly pages: Readonly<Record<string, { readonly title: string }>>;
  /** The page a page link shows (its links to itself go to linkBase); null for a folder link. */
  readonly rootPageId: string | null;
  /** The title the page is shown under: a first heading saying the same is not shown twice. */
  readonly title?: string | null;
}

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
/** The forms the service writes: `/api/v1/pages/<id>` with or without a host before it and `#heading` after. */
const PAGE_HREF = new RegExp(`^(?:https?://[^/]+)?/api/v1/pages/(${UUID})(?:/?)(#[^\\s]*)?$`);
const IMAGE_SRC = new RegExp(`^(?:https?://[^/]+)?/api/v1/images/(${UUID})$`);
/** An attachment's url as its upload's `markdown` gives it (`/api/v1/attachments/<id>`), with or without a host. */
const ATTACHMENT_HREF = new RegExp(`^(?:https?://[^/]+)?/api/v1/attachments/(${UUID})$`);
const WIKILINK = /\[\[([^\][|#]+)(#[^\][|]*)?(?:\|([^\][]*))?\]\]/g;

const schema: Schema = {
  ...defaultSchema,
  attributes: { ...defaultSchema.attributes, a: [...(defaultSchema.attributes?.a ?? []), "rel"] },
};

function pageHref(id: string, options: RenderOptions, hash: string): string | null {
  const key = id.toLowerCase();
  if (!(key in options.pages)) return null;
  return `${key === options.rootPageId ? options.linkBase : `${options.linkBase}/pages/${key}`}${hash}`;
}

/** `[[Title]]`, `[[Title#Heading]]` and `[[Title|text]]` left in a page's text: links when the title names a page of the link. */
function expandWikilinks(tree: MdastRoot, options: RenderOptions): void {
  const byTitle = new Map(Object.entries(options.pages).map(([id, page]) => [page.title.trim().toLowerCase(), id]));
  visit(tree, "text", (node: Text, index, parent) => {
    if (!parent || index === undefined || !node.value.includes("[[")) return;
    const parts: PhrasingContent[] = [];
    let last = 0;
    for (const match of node.value.matchAll(WIKILINK)) {
      const [whole, title = "", heading, alias] = match;
      const start = match.index;
      if (start > last) parts.push({ type: "text", value: node.value.slice(last, start) });
      const id = byTitle.get(title.trim().toLowerCase());
      const text = alias?.trim() || title.trim();
      const href =
        id === undefined
          ? null
          : pageHref(id, options, heading ? `#${heading.slice(1).trim().toLowerCase().replace(/\s+/g, "-")}` : "");
      parts.push(
        href ? { type: "link", url: href, children: [{ type: "text", value: text }] } : { type: "text", value: text },
      );
      last = start + whole.length;
    }
    if (parts.length === 0) return;
    if (last < node.value.length) parts.push({ type: "text", value: node.value.slice(last) });
    parent.children.splice(index, 1, ...parts);
    return [SKIP, index + parts.length];
  });
}

/** The path an attachment's url takes through the link, or null when `url` names no attachment. */
function attachmentThroughLink(url: string, options: RenderOptions): string | null {
  const attachment = ATTACHMENT_HREF.exec(url);
  return attachment ? `${options.linkBase}/attachments/${(attachment[1] ?? "").toLowerCase()}` : null;
}

const normalizedLabel = (label: string): string => label.replace(/\s+/g, " ").trim().toLowerCase();

/** `[text][ref]` and `![alt][ref]` as the inline links they stand for; the definitions go (they carry urls). */
function resolveReferences(tree: MdastRoot): void {
  const definitions = new Map<string, Definition>();
  visit(tree, "definition", (node: Definition) => {
    const key = normalizedLabel(node.identifier);
    if (!definitions.has(key)) definitions.set(key, node);
  });
  visit(tree, (node: Nodes, index, parent) => {
    if (!parent || index === undefined) return undefined;
    if (node.type === "definition" || node.type === "html") {
      parent.children.splice(index, 1);
      return [SKIP, index];
    }
    if (node.type !== "linkReference" && node.type !== "imageReference") return undefined;
    const definition = definitions.get(normalizedLabel(node.identifier));
    const replacement: RootContent = definition
      ? node.type === "linkReference"
        ? { type: "link", url: definition.url, title: definition.title ?? null, children: node.children }
        : { type: "image", url: definition.url, title: definition.title ?? null, alt: node.alt ?? "" }
      : { type: "text", value: node.type === "imageReference" ? (node.alt ?? "") : "" };
    if (!definition && node.type === "linkReference") {
      parent.children.splice(index, 1, ...(node.children as RootContent[]));
      return [SKIP, index];
    }
    (parent.children as RootContent[]).splice(index, 1, replacement);
    return undefined;
  });
}

/**
 * Links to pages of the link go through it; links to other pages and routes of the service become their text,
 * so nothing outside the link leaks an id or a path; images and attachments go through the link (whose route
 * serves only those of pages the link shows); images from elsewhere become their alt text (the page's CSP
 * would not load them).
 */
function rewriteReferences(tree: MdastRoot, options: RenderOptions): void {
  visit(tree, (node: Nodes, index, parent) => {
    if (node.type === "link") {
      const href = node.url;
      if (
        href.startsWith(`${options.linkBase}/pages/`) ||
        href === options.linkBase ||
        href.startsWith(`${options.linkBase}#`)
      )
        return undefined;
      const attachment = attachmentThroughLink(href, options);
      if (attachment) {
        node.url = attachment;
        return undefined;
      }
      const page = PAGE_HREF.exec(href);
      const target = page ? pageHref(page[1] ?? "", options, page[2] ?? "") : null;
      if (target) {
        node.url = target;
      } else if ((href.startsWith("/") || page !== null || IMAGE_SRC.test(href)) && parent && index !== undefined) {
        parent.children.splice(index, 1, ...(node.children as RootContent[] as typeof parent.children));
        return [SKIP, index];
      }
      return undefined;
    }
    if (node.type === "image") {
      const image = IMAGE_SRC.exec(node.url);
      const attachment = attachmentThroughLink(node.url, options);
      if (image) {
        node.url = `${options.linkBase}/images/${(image[1] ?? "").toLowerCase()}`;
      } else if (attachment) {
        node.url = attachment;
      } else if (parent && index !== undefined) {
        const alt = node.alt ?? "";
        parent.children.splice(index, 1, ...(alt ? [{ type: "text" as const, value: alt }] : []));
        return [SKIP, index];
      }
    }
    return undefined;
  });
}

/** The first heading, when it says the title the page is shown under. */
function dropRepeatedTitle(tree: MdastRoot, title: string | null | undefined): void {
  const first = tree.children[0];
  if (!title || first?.type !== "heading" || first.depth !== 1) return;
  const text = (nodes: readonly Nodes[]): string =>
    nodes
      .map((node) =>
        "value" in node && typeof node.value === "string" ? node.value : "children" in node ? text(node.children) : "",
      )
      .join("");
  if (normalizedLabel(text(first.children)) === normalizedLabel(title)) tree.children.shift();
}

/** The one rule of what a share link's reader sees of a page's markdown, for both forms. */
function keepWithinLink(markdown: string, options: RenderOptions): MdastRoot {
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  resolveReferences(tree);
  expandWikilinks(tree, options);
  rewriteReferences(tree, options);
  return tree;
}

/** External links (all that is left outside the link) open without telling the page where they came from. */
function markExternal(tree: HastRoot): void {
  visit(tree, "element", (node: Element) => {
    if (node.tagName === "a" && typeof node.properties.href === "string" && !node.properties.href.startsWith("/"))
      node.properties.rel = ["noopener", "noreferrer", "nofollow"];
  });
}

export function markdownToSafeHtml(markdown: string, options: RenderOptions): string {
  const mdast = keepWithinLink(markdown, options);
  dropRepeatedTitle(mdast, options.title);
  // allowDangerousHtml is off: raw HTML in the markdown (<script>, <img onerror>, <svg>, <style>) is dropped here too.
  const hast = toHast(mdast, { allowDangerousHtml: false });
  const root: HastRoot = hast.type === "root" ? hast : { type: "root", children: [hast] };
  markExternal(root);
  return toHtml(sanitize(root, schema));
}

/** The markdown form (`Accept: text/markdown`): what the HTML shows, written back in the common forms (`-` lists). */
export function markdownWithinLink(markdown: string, options: RenderOptions): string {
  const written = toMarkdown(keepWithinLink(markdown, options), {
    extensions: [gfmToMarkdown()],
    bullet: "-",
    emphasis: "_",
    rule: "-",
  });
  return markdown.endsWith("\n") ? written : written.replace(/\n$/, "");
}
