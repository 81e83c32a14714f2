// One MCP server per caller, built by the SDK v2's factory for every request of the 2026-07-28 revision and once
// per session of a 2025 client: every tool is registered, each behind an OAuth scope challenge for the scope it
// needs (a token without it is answered 403 naming the scope), while tools/list names only the tools the
// caller's scopes allow; with pages:read, each page they can view is a resource `workspace://pages/{id}`,
// listed with paging and watchable (subscriptions/listen, or resources/subscribe on a 2025 session). Every
// call runs as the request's principal, spends its budget, and answers the API's errors as tool errors.
import {
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  requireScopes,
  type CallToolResult,
  type CacheHint,
} from "@modelcontextprotocol/server";
import type { Logger } from "pino";
import { z } from "zod";
import type { Principal } from "../../shared/auth/principal.ts";
import { seenBy } from "../../shared/access/seen-by.ts";
import { effectivePermission } from "../../shared/access/effective-permission.ts";
import { AppError } from "../../shared/errors/app-error.ts";
import type { RateLimits } from "../../shared/http/rate-limit.ts";
import { userIdSchema } from "../../shared/kernel/ids.ts";
import { listPages } from "../../shared/pages/list-pages.ts";
import { renderPageDocument } from "../../shared/pages/page-document.ts";
import type { ReadModels } from "../../shared/read-store/read-store.port.ts";
import type { McpTool, ToolCaller } from "./mcp-tool.ts";
import { spendToolBudget } from "./tool-budget.ts";
import type { ToolList } from "./tool-list.ts";

const SERVER_INFO = { name: "workspace", title: "Workspace", version: "1.0.0" };
const PAGE_URI = /^workspace:\/\/pages\/([0-9a-f-]{36})$/;
export const pageUri = (pageId: string): string => `workspace://pages/${pageId}`;
const RESOURCES_PER_PAGE = 50;

/**
 * How long a 2026-07-28 client may reuse a list result (the revision's cache hints). All of them are private:
 * what a caller sees depends on their access and their token's scopes. The tool list changes only with a
 * release; the page list with every write, so it is reused only briefly.
 */
const CACHE_HINTS = {
  "server/discover": { ttlMs: 3_600_000, cacheScope: "private" },
  "tools/list": { ttlMs: 3_600_000, cacheScope: "private" },
  "resources/templates/list": { ttlMs: 86_400_000, cacheScope: "private" },
  "resources/list": { ttlMs: 10_000, cacheScope: "private" },
  "resources/read": { ttlMs: 0, cacheScope: "private" },
} as const satisfies Record<string, CacheHint>;

/** Who calls, through which HTTP request, and (a 2025 session only) the pages they subscribed to. */
export interface CallerState {
  principal: Principal;
  /** The id of the HTTP request carrying the current message: the events' correlation id. */
  requestId: string;
  readonly subscriptions: Set<string>;
}

export interface McpServerPorts {
  readonly views: ReadModels;
  readonly clock: () => Date;
  readonly logger: Logger;
  readonly rateLimits?: RateLimits;
  /** The tools/list answers, computed once per scope set (tool-list.ts). */
  readonly toolList: ToolList;
}

/** The error body a tool answers: the API's, with `retry_after` (seconds) when the call was rate limited. */
function errorBody(error: AppError): { error: { code: string; message: string; retry_after?: number } } {
  const retryAfter = Number(error.headers["retry-after"]);
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(Number.isFinite(retryAfter) && error.code === "rate_limited" ? { retry_after: retryAfter } : {}),
    },
  };
}

/** An error as the API would answer it; anything that is not an AppError is logged and answered `internal`. */
function asAppError(error: unknown, logger: Logger, where: string): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof z.ZodError)
    return new AppError(
      "validation_failed",
      error.issues.map((issue) => `${issue.path.join(".") || "arguments"}: ${issue.message}`).join("; "),
    );
  const reference = crypto.randomUUID();
  logger.error({ event: "mcp.error", where, reference, err: error });
  return new AppError("internal", `internal error; quote reference ${reference}`);
}

/** The protocol generation a server answers: 2026-07-28 (`modern`) or a 2025 revision (`legacy`). */
export type Era = "modern" | "legacy";

export function buildMcpServer(
  ports: McpServerPorts,
  caller: CallerState,
  tools: readonly McpTool[],
  era: Era,
): McpServer {
  const scopes = caller.principal.scopes;
  const mayRead = scopes === null || scopes.includes("pages:read");
  const server = new McpServer(SERVER_INFO, {
    capabilities: {
      tools: { listChanged: false },
      ...(mayRead ? { resources: { subscribe: true, listChanged: false } } : {}),
    },
    cacheHints: CACHE_HINTS,
    instructions:
      "A team's knowledge base of markdown pages in folders. Find pages with search or resolve_page, read them with read_page (which gives the ETag), " +
      "change them with edit_page (exact passages, with that ETag) or append_to_page. Every change is recorded in page_history under your token and can be compared (diff_page) or undone (restore_page_version).",
  });

  const toolCaller: ToolCaller = {
    get principal() {
      return caller.principal;
    },
    actor: () => ({
      principal: caller.principal,
      context: {
        actorId: userIdSchema.parse(caller.principal.user.id),
        tokenId: caller.principal.tokenId,
        correlationId: caller.requestId,
        now: ports.clock(),
      },
    }),
  };

  for (const tool of tools) {
    server.registerTool(
      tool.name,
      // A caller without the tool's scope is challenged (403, WWW-Authenticate naming it) before the tool runs.
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: tool.annotations,
        scopeChallenge: requireScopes(tool.scope),
      },
      async (args): Promise<CallToolResult> => {
        try {
          await spendToolBudget(ports.rateLimits, tool.budget, caller.principal, ports.logger);
          const result = await tool.run(args, toolCaller);
          return {
            content: [{ type: "text", text: tool.text ? tool.text(result) : JSON.stringify(result) }],
            structuredContent: result,
          };
        } catch (error) {
          const body = errorBody(asAppError(error, ports.logger, tool.name));
          // A 2025 client (SDK 1.x) checks even an error's structured content against the tool's output schema,
          // so the error is structured for 2026-07-28 clients only; both read it in the text.
          return {
            content: [{ type: "text", text: JSON.stringify(body) }],
            ...(era === "modern" ? { structuredContent: body } : {}),
            isError: true,
          };
        }
      },
    );
  }
  // The SDK would turn every tool's schemas into JSON Schema again for each tools/list: the shared answer replaces it.
  const listed = ports.toolList.for(scopes);
  server.server.setRequestHandler("tools/list", () => listed);
  if (mayRead) registerPageResources(server, ports, caller);
  return server;
}

/** A resource request's failure as a JSON-RPC error carrying the API's code. */
function resourceError(error: unknown, logger: Logger): ProtocolError {
  const failure = asAppError(error, logger, "resources");
  if (failure.code === "not_found") return new ResourceNotFoundError(failure.message);
  const code = failure.code === "internal" ? ProtocolErrorCode.InternalError : ProtocolErrorCode.InvalidParams;
  return new ProtocolError(code, failure.message, errorBody(failure).error);
}

function registerPageResources(server: McpServer, ports: McpServerPorts, caller: CallerState): void {
  const { views } = ports;
  const pageIdOf = (uri: string): string => {
    const match = PAGE_URI.exec(uri);
    if (!match?.[1]) throw new AppError("not_found", "no such resource; pages are workspace://pages/{id}");
    return match[1];
  };
  const low = server.server;
  low.setRequestHandler("resources/list", async (request) => {
    try {
      await spendToolBudget(ports.rateLimits, "read", caller.principal, ports.logger);
      const listed = await listPages(views, caller.principal, {
        cursor: request.params?.cursor,
        limit: RESOURCES_PER_PAGE,
      });
      const resources = listed.data.map((page) => ({
        uri: pageUri(page.id),
        name: page.title,
        title: page.title,
        mimeType: "text/markdown",
      }));
      return listed.nextCursor === null ? { resources } : { resources, nextCursor: listed.nextCursor };
    } catch (error) {
      throw resourceError(error, ports.logger);
    }
  });
  low.setRequestHandler("resources/templates/list", () => ({
    resourceTemplates: [
      {
        uriTemplate: "workspace://pages/{id}",
        name: "page",
        title: "A page",
        description: "A page's markdown, with its fields as YAML frontmatter",
        mimeType: "text/markdown",
      },
    ],
  }));
  low.setRequestHandler("resources/read", async (request) => {
    try {
      await spendToolBudget(ports.rateLimits, "read", caller.principal, ports.logger);
      const pageId = pageIdOf(request.params.uri);
      const content = await views.pages.getContent(pageId);
      const context = await views.access.contextFor(caller.principal.user.id);
      if (!content || !effectivePermission(context, { kind: "page", ...content.page }))
        throw new AppError("not_found", "page not found");
      return {
        contents: [
          {
            uri: pageUri(pageId),
            mimeType: "text/markdown",
            text: renderPageDocument(seenBy(context, content.page), content.markdown),
          },
        ],
      };
    } catch (error) {
      throw resourceError(error, ports.logger);
    }
  });
  // The 2025 revision's subscriptions, kept for the sessions of 2025 clients (mcp-sessions.ts).
  low.setRequestHandler("resources/subscribe", async (request) => {
    try {
      const pageId = pageIdOf(request.params.uri);
      // Only a page the caller can view may be watched: any other answers as a missing one.
      const page = await views.pages.get(pageId);
      const context = await views.access.contextFor(caller.principal.user.id);
      if (!page || !effectivePermission(context, { kind: "page", ...page }))
        throw new AppError("not_found", "page not found");
      if (caller.subscriptions.size >= 1_000)
        throw new AppError("validation_failed", "at most 1000 subscriptions per session");
      caller.subscriptions.add(pageId);
      return {};
    } catch (error) {
      throw resourceError(error, ports.logger);
    }
  });
  low.setRequestHandler("resources/unsubscribe", (request) => {
    const match = PAGE_URI.exec(request.params.uri);
    if (match?.[1]) caller.subscriptions.delete(match[1]);
    return {};
  });
}
