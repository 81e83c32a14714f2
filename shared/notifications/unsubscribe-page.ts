// The pages of a notification email's unsubscribe link, for a person who opens it in a browser: a button that
// POSTs the one-click form (RFC 8058's body), and what the POST answers. No script; the headers and style of the
// public share pages (share-links/public-page-html.ts). Pure.
import { documentOf, escapeHtml } from "../share-links/public-page-html.ts";
import type { UnsubscribeScope } from "./unsubscribe-token.ts";

const unsubscribePath = (token: string): string =>
  `/api/v1/notifications/unsubscribe?token=${encodeURIComponent(token)}`;

const whatOf = (scope: UnsubscribeScope): string =>
  scope === "all" ? "notification emails and digests" : `emails about “${scope.replace(/_/g, " ")}” notifications`;

export function unsubscribeDocument(token: string, scope: UnsubscribeScope): string {
  return documentOf(
    "Unsubscribe",
    `<main><h1>Unsubscribe</h1><p>Stop ${escapeHtml(whatOf(scope))}? They stay in your notifications list.</p><form method="post" action="${escapeHtml(unsubscribePath(token))}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form></main>`,
  );
}

export function unsubscribedDocument(scope: UnsubscribeScope): string {
  return documentOf(
    "Unsubscribed",
    `<main><h1>Unsubscribed</h1><p role="status">You will get no more ${escapeHtml(whatOf(scope))}. Your notification settings can turn them on again.</p></main>`,
  );
}
