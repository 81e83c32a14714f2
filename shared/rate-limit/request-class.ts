// The one place that says which budget a request spends, from its method and route, so route files need not
// say it: health, readiness, metrics and the services' internal calls spend none.
import type { RateLimitClass } from "./rate-limit-policy.ts";

const API = "/api/v1";
const UNLIMITED = /^\/(healthz|readyz|metrics|internal)(\/|$)/;

/** `route` is the matched route's pattern (`/api/v1/pages/:pageId`), or the raw path when none matched. */
export function rateLimitClassOf(method: string, route: string): RateLimitClass | null {
  if (UNLIMITED.test(route)) return null;
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return route === `${API}/search` ? "search" : "read";
  if (method === "POST" && route === `${API}/imports/obsidian`) return "import";
  if (method === "POST" && route === `${API}/pages/:pageId/images`) return "upload";
  if (method === "POST" && route === `${API}/pages/:pageId/attachments`) return "upload";
  return "write";
}
