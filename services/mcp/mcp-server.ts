// One MCP server per session, made for its caller: the tools their token's scopes allow (a pages:read token sees
// only reading tools; calling another is an error), and, with pages:read, each page they can view as a
// resource `workspace://pages/{id}`, listed with paging and subscribable. Every call runs as the session's
// current principal, spends its budget, and answers the API's errors as tool errors {error: {code, message}}.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
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
import { spendBudget } from "./tool-budget.ts";

const SERVER_INFO = { name: "workspace", title: "Workspace", version: "1.0.0" };
const PAGE_URI = /^workspace:\/\/pages\/([0-9a-f-]{36})$/;
export const pageUri = (pageId: string): string => `workspace://pages/${pageId}`;
const RESOURCES_PER_PAGE = 50;

/** What a session's server needs from its session: who calls now, the HTTP request carrying the call, its subscriptions. */
export interface SessionState {
  principal: Principal;
  readonly subscriptions: Set<string>;
}

export interface McpServerPorts {
  readonly views: ReadModels;
  readonly clock: () => Date;
  readonly logger: Logger;
  readonly rateLimits?: RateLimits;
}

const requestIdOf = z.object({ requestId: z.string() });

function errorText(error: AppError): string {
  return JSON.stringify({ error: { code: error.code, message: error.message } });
}

/** An error as the API would answer it; anything that is not an AppError is logged and answered `internal`. */
function asAppError(error: unknown, logger: Logger, where: string): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof z.ZodError) return new AppError("validation_failed", error.issues.map((issue) => `${issue.path.join(".") || "arguments"}: ${issue.message}`).join("; "));
  const reference = crypto.randomUUID();
  logger.error({ event: "mcp.error", where, reference, err: error });
  return new AppError("internal", `internal error; quote reference ${reference}`);
}

export function buildMcpServer(ports: McpServerPorts, session: SessionState, tools: readonly McpTool[]): McpServer {
  const scopes = session.principal.scopes;
  const allowed = (scope: McpTool["scope"]) => scopes === null || scopes.includes(scope);
  const mayRead = allowed("pages:read");
  const server = new McpServer(SERVER_INFO, {
    capabilities: mayRead ? { resources: { subscribe: true, listChanged: false } } : {},
    instructions:
      "A team's knowledge base of markdown pages in folders. Find pages with search or resolve_page, read them with read_page (which gives the ETag), " +
      "change them with edit_page (exact passages, with that ETag) or append_to_page. Every change is recorded in page_history under your token and can be compared (diff_page) or undone (restore_page_version).",
  });

  const callerFor = (requestId: string): ToolCaller => ({
    principal: session.principal,
    actor: () => ({ principal: session.principal, context: { actorId: userIdSchema.parse(session.principal.user.id), tokenId: session.principal.tokenId, correlationId: requestId, now: ports.clock() } }),
  });

  for (const tool of tools) {
    if (!allowed(tool.scope)) continue;
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, outputSchema: tool.output, annotations: tool.annotations },
      async (args, extra): Promise<CallToolResult> => {
        const requestId = requestIdOf.safeParse(extra.authInfo?.extra).data?.requestId ?? crypto.randomUUID();
        try {
          // The session's principal is the one the carrying request authenticated: scopes are checked again.
          if (!allowed(tool.scope)) throw new AppError("insufficient_scope", `this API token lacks the ${tool.scope} scope`);
          await spendBudget(ports.rateLimits, tool.budget, session.principal, ports.logger);
          const result = await tool.run(args, callerFor(requestId));
          return { content: [{ type: "text", text: tool.text ? tool.text(result) : JSON.stringify(result) }], structuredContent: result };
        } catch (error) {
          return { content: [{ type: "text", text: errorText(asAppError(error, ports.logger, tool.name)) }], isError: true };
        }
      },
    );
  }
  if (mayRead) registerPageResources(server, ports, session);
  return server;
}

/** A resource request's failure as a JSON-RPC error carrying the API's code. */
function resourceError(error: unknown, logger: Logger): McpError {
  const failure = asAppError(error, logger, "resources");
  const code = failure.code === "not_found" ? -32002 : failure.code === "internal" ? ErrorCode.InternalError : ErrorCode.InvalidParams;
  return new McpError(code, failure.message, { code: failure.code });
}

function registerPageResources(server: McpServer, ports: McpServerPorts, session: SessionState): void {
  const { views } = ports;
  const pageIdOf = (uri: string): string => {
    const match = PAGE_URI.exec(uri);
    if (!match?.[1]) throw new AppError("not_found", "no such resource; pages are workspace://pages/{id}");
    return match[1];
  };
  const low = server.server;
  low.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    try {
      await spendBudget(ports.rateLimits, "read", session.principal, ports.logger);
      const listed = await listPages(views, session.principal, { cursor: request.params?.cursor, limit: RESOURCES_PER_PAGE });
      const resources = listed.data.map((page) => ({ uri: pageUri(page.id), name: page.title, title: page.title, mimeType: "text/markdown" }));
      return listed.nextCursor === null ? { resources } : { resources, nextCursor: listed.nextCursor };
    } catch (error) {
      throw resourceError(error, ports.logger);
    }
  });
  low.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [{ uriTemplate: "workspace://pages/{id}", name: "page", title: "A page", description: "A page's markdown, with its fields as YAML frontmatter", mimeType: "text/markdown" }],
  }));
  low.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    try {
      await spendBudget(ports.rateLimits, "read", session.principal, ports.logger);
      const pageId = pageIdOf(request.params.uri);
      const content = await views.pages.getContent(pageId);
      const context = await views.access.contextFor(session.principal.user.id);
      if (!content || !effectivePermission(context, { kind: "page", ...content.page })) throw new AppError("not_found", "page not found");
      return { contents: [{ uri: pageUri(pageId), mimeType: "text/markdown", text: renderPageDocument(seenBy(context, content.page), content.markdown) }] };
    } catch (error) {
      throw resourceError(error, ports.logger);
    }
  });
  low.setRequestHandler(SubscribeRequestSchema, async (request) => {
    try {
      const pageId = pageIdOf(request.params.uri);
      // Only a page the caller can view may be watched: any other answers as a missing one.
      const page = await views.pages.get(pageId);
      const context = await views.access.contextFor(session.principal.user.id);
      if (!page || !effectivePermission(context, { kind: "page", ...page })) throw new AppError("not_found", "page not found");
      if (session.subscriptions.size >= 1_000) throw new AppError("validation_failed", "at most 1000 subscriptions per session");
      session.subscriptions.add(pageId);
      return {};
    } catch (error) {
      throw resourceError(error, ports.logger);
    }
  });
  low.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    const match = PAGE_URI.exec(request.params.uri);
    if (match?.[1]) session.subscriptions.delete(match[1]);
    return {};
  });
}
