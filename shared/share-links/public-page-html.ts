// The public page's HTML documents and headers: the page, the password form, the refusals, and one 404 that is the same bytes
// for every link that shows nothing (never existed, revoked, expired, deleted, out of the folder). Pure.
import { createHash } from "node:crypto";

const STYLE =
  "body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222}" +
  "nav{border-bottom:1px solid #ddd;margin-bottom:1.5rem;padding-bottom:.5rem}nav ul{padding-left:1.2rem}" +
  "img{max-width:100%}pre{overflow:auto;background:#f5f5f5;padding:.5rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .5rem}";
const STYLE_HASH = `'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`;

/** No script at all, images only from this origin, the one inline style by its hash, forms only back here. */
const CONTENT_SECURITY_POLICY = `default-src 'none'; img-src 'self'; style-src ${STYLE_HASH}; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

/** Every answer under /s/: nothing cached outside the viewer's browser (a revoked link's content leaves at once). */
export function publicHeaders(allowIndexing: boolean): Record<string, string> {
  return {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
    ...(allowIndexing ? {} : { "x-robots-tag": "noindex, nofollow" }),
  };
}

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

export function documentOf(title: string, body: string): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>\n`;
}

export const NOT_FOUND_HTML = documentOf(
  "Not found",
  "<h1>Not found</h1><p>This link does not exist or no longer works.</p>",
);

export const RANGE_NOT_SATISFIABLE_HTML = documentOf(
  "Range not satisfiable",
  "<h1>Range not satisfiable</h1><p>The file has no bytes in the range asked for.</p>",
);

export const TOO_MANY_HTML = documentOf(
  "Too many attempts",
  "<h1>Too many attempts</h1><p>Wait a while before trying this password again.</p>",
);

export const RATE_LIMITED_HTML = documentOf(
  "Too many requests",
  "<h1>Too many requests</h1><p>Wait a while before opening this link again.</p>",
);

export interface NavItem {
  readonly href: string;
  readonly title: string;
  readonly current: boolean;
}

/** A page (or a folder's index, `html` empty) with, for a folder link, its navigation. */
export function pageDocument(page: {
  title: string;
  html: string;
  nav: { folder: string; rootHref: string; items: readonly NavItem[] } | null;
}): string {
  const nav = page.nav
    ? `<nav><a href="${escapeHtml(page.nav.rootHref)}"><strong>${escapeHtml(page.nav.folder)}</strong></a><ul>${page.nav.items
        .map(
          (item) =>
            `<li>${item.current ? `<strong>${escapeHtml(item.title)}</strong>` : `<a href="${escapeHtml(item.href)}">${escapeHtml(item.title)}</a>`}</li>`,
        )
        .join("")}</ul></nav>`
    : "";
  return documentOf(page.title, `${nav}<main><h1>${escapeHtml(page.title)}</h1>${page.html}</main>`);
}

/** The password form; it posts back to the link's own address. */
export function passwordDocument(action: string, wrong: boolean): string {
  const message = wrong
    ? '<p role="alert">That password is not right.</p>'
    : "<p>This page is protected by a password.</p>";
  return documentOf(
    "Password required",
    `<main><h1>Password required</h1>${message}<form method="post" action="${escapeHtml(action)}"><label>Password <input type="password" name="password" autocomplete="current-password" required autofocus></label> <button type="submit">Open</button></form></main>`,
  );
}
