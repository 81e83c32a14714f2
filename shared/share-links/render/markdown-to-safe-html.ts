// A shared page's markdown as HTML a browser may show to anyone: parsed by micromark (CommonMark and GFM) into
// mdast, turned into hast with raw HTML dropped (never passed through), its links and images pointed at the share
// link's own routes, then cleaned by hast-util-sanitize (GitHub's rules: no script, no event handlers, no style,
// only http, https, mailto and a few other protocols in href, http and https in src) and serialised. Pure and
// synchronous: it runs in a worker thread (render-shared-page.ts), never on the server's event loop.
import type { Element, Root as HastRoot } from "hast";
import { defaultSchema, sanitize, type Schema } from "hast-util-sanitize";
import { toHtml } from "hast-util-to-html";
import type { PhrasingContent, Root as MdastRoot, Text } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { toHast } from "mdast-util-to-hast";
import { gfm } from "micromark-extension-gfm";
import { SKIP, visit } from "unist-util-visit";

export interface RenderOptions {
  /** The link's own path, `/s/<secret>`: what page links and images are rewritten under. */
  readonly linkBase: string;
  /** Pages a reader of the link may open, by lower-case id, with their titles (for wikilinks). */
  readonly pages: Readonly<Record<string, { readonly title: string }>>;
  /** The page a page link shows (its links to itself go to linkBase); null for a folder link. */
  readonly rootPageId: string | null;
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
      const href = id === undefined ? null : pageHref(id, options, heading ? `#${heading.slice(1).trim().toLowerCase().replace(/\s+/g, "-")}` : "");
      parts.push(href ? { type: "link", url: href, children: [{ type: "text", value: text }] } : { type: "text", value: text });
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

/**
 * Links to pages of the link go through it; links to other pages of the service become their text; images and
 * attachments go through the link (whose route serves only those of pages the link shows).
 */
function rewriteReferences(tree: HastRoot, options: RenderOptions): void {
  visit(tree, "element", (node: Element, index, parent) => {
    if (node.tagName === "a" && typeof node.properties.href === "string") {
      const href = node.properties.href;
      if (href.startsWith(`${options.linkBase}/pages/`) || href === options.linkBase || href.startsWith(`${options.linkBase}#`)) return;
      const attachment = attachmentThroughLink(href, options);
      if (attachment) {
        node.properties.href = attachment;
        return undefined;
      }
      const page = PAGE_HREF.exec(href);
      const internal = href.startsWith("/") || page !== null;
      const target = page ? pageHref(page[1] ?? "", options, page[2] ?? "") : null;
      if (target) {
        node.properties.href = target;
      } else if (internal && parent && index !== undefined) {
        // Outside the link (another page, another route of the service): plain text, so nothing outside leaks a path.
        parent.children.splice(index, 1, ...(node.children));
        return [SKIP, index];
      } else {
        node.properties.rel = ["noopener", "noreferrer", "nofollow"];
      }
    }
    if (node.tagName === "img") {
      const src = typeof node.properties.src === "string" ? node.properties.src : "";
      const image = IMAGE_SRC.exec(src);
      const attachment = attachmentThroughLink(src, options);
      if (image && parent && index !== undefined) {
        node.properties.src = `${options.linkBase}/images/${(image[1] ?? "").toLowerCase()}`;
      } else if (attachment) {
        node.properties.src = attachment;
      } else if (parent && index !== undefined) {
        // Images from elsewhere are not loaded (the page's CSP allows only its own): their alt text stays.
        const alt = typeof node.properties.alt === "string" ? node.properties.alt : "";
        parent.children.splice(index, 1, ...(alt ? [{ type: "text" as const, value: alt }] : []));
        return [SKIP, index];
      }
    }
    return undefined;
  });
}

export function markdownToSafeHtml(markdown: string, options: RenderOptions): string {
  const mdast = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  expandWikilinks(mdast, options);
  // allowDangerousHtml is off: raw HTML in the markdown (<script>, <img onerror>, <svg>, <style>) is dropped here.
  const hast = toHast(mdast, { allowDangerousHtml: false });
  const root: HastRoot = hast.type === "root" ? hast : { type: "root", children: [hast] };
  rewriteReferences(root, options);
  return toHtml(sanitize(root, schema));
}
