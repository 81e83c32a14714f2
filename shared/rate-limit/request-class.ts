// The one place that says which budget a request spends, from its method and route, so route files need not
// say it: health, readiness, metrics, the icon (a constant 204) and the services' internal calls spend none. The MCP server's requests are
// counted by its route instead, once the body is read: each JSON-RPC message one unit of the read budget, a tool
// call the budget of the route it stands for (services/mcp/mcp.routes.ts, tool-budget.ts).
import type { RateLimitClass } from "./rate-limit-policy.ts";

const API = "/api/v1";
const UNLIMITED = /^\/(healthz|readyz|metrics|internal|mcp)(\/|$)|^\/favicon\.ico$/;

/** `route` is the matched route's pattern (`/api/v1/pages/:pageId`), or the raw path when none matched. */
export function rateLimitClassOf(method: string, route: string): RateLimitClass | null {
  if (UNLIMITED.test(route)) return null;
  if (method === "GET" || method === "HEAD" || method === "OPTIONS")
    return route === `${API}/search` ? "search" : "read";
  if (method === "POST" && route === `${API}/imports/obsidian`) return "import";
  if (method === "POST" && route === `${API}/pages/:pageId/images`) return "upload";
  // Each answers whether an address has an account, and each grant adds to another user's costs.
  if (
    method === "POST" &&
    (route === `${API}/shares/workspace/members` || route === `${API}/shares/entity/:entityType/:entityId/grants`)
  )
    return "sharing";
  if (method === "POST" && route === `${API}/pages/:pageId/attachments`) return "upload";
  return "write";
}
