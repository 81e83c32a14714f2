// The consent page's HTML and headers: no script, the share pages' strict policy (one inline style by its hash,
// nothing else loaded), a form that posts back here. The form's answer redirects to the client, so the policy's
// form-action names the redirect's origin too (browsers apply form-action to a form's redirects). Pure.
import { createHash } from "node:crypto";
import type { Scope } from "../kernel/scopes.ts";
import { escapeHtml } from "../share-links/public-page-html.ts";

const STYLE =
  "body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#222}" +
  "fieldset{border:1px solid #ddd;padding:.5rem 1rem}label{display:block;margin:.3rem 0}button{font:inherit;padding:.4rem 1rem;margin-right:.5rem}" +
  "code{background:#f5f5f5;padding:0 .2rem}";
const STYLE_HASH = `'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`;

const SCOPE_WORDS: Record<Scope, string> = {
  "pages:read": "read the pages, folders and history you can see",
  "pages:comment": "comment on the pages you may comment on",
  "pages:write": "create, change and delete pages you may edit",
};

export function consentHeaders(redirectOrigin: string | null): Record<string, string> {
  const formAction = redirectOrigin ? `'self' ${redirectOrigin}` : "'self'";
  return {
    "content-security-policy": `default-src 'none'; style-src ${STYLE_HASH}; form-action ${formAction}; base-uri 'none'; frame-ancestors 'none'`,
    "x-content-type-options": "nosniff",
    // Not no-referrer: under it a browser posts the form with `Origin: null`, and the answer's origin is checked.
    // Same-origin sends nothing to the client's site.
    "referrer-policy": "same-origin",
    "cache-control": "no-store",
    "x-frame-options": "DENY",
  };
}

const documentOf = (title: string, body: string): string =>
  `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>\n`;

export interface ConsentView {
  readonly action: string;
  readonly csrf: string;
  readonly clientName: string;
  readonly clientUrl: string | null;
  readonly redirectHost: string;
  readonly scopes: Scope[];
  readonly userName: string;
}

export function consentPage(view: ConsentView): string {
  const clientUrl = view.clientUrl
    ? `<p>Its address: <code>${escapeHtml(view.clientUrl)}</code></p>`
    : "<p>It gave no address of its own.</p>";
  const scopes = view.scopes
    .map(
      (scope) =>
        `<label><input type="checkbox" name="scope" value="${escapeHtml(scope)}" checked> <code>${escapeHtml(scope)}</code>: ${escapeHtml(SCOPE_WORDS[scope])}</label>`,
    )
    .join("");
  return documentOf(
    `Authorize ${view.clientName}`,
    `<h1>Authorize <span id="client-name">${escapeHtml(view.clientName)}</span>?</h1>${clientUrl}` +
      `<p>Signed in as ${escapeHtml(view.userName)}. After your answer you go back to <code id="redirect-host">${escapeHtml(view.redirectHost)}</code>.</p>` +
      `<form method="post" action="${escapeHtml(view.action)}"><input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">` +
      `<fieldset><legend>It asks to act as you, to:</legend>${scopes}</fieldset>` +
      `<p><button type="submit" name="decision" value="approve">Approve</button><button type="submit" name="decision" value="deny">Deny</button></p></form>`,
  );
}

export function consentProblemPage(message: string): string {
  return documentOf("Authorization failed", `<h1>Authorization failed</h1><p>${escapeHtml(message)}</p>`);
}
