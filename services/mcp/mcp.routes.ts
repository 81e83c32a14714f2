// The MCP server at /mcp, and the RFC 9728 metadata that tells a client how to authenticate. A request carries
// an API token (`Authorization: Bearer`) or a browser session; without one it is 401 with a WWW-Authenticate that
// points at the metadata and names the scope the request needs. The official SDK v2 serves two generations on
// the one path: the 2026-07-28 revision statelessly (every request carries its revision and capabilities; a
// fresh server per request, so any node answers any request; subscriptions/listen from the change feed), and
// 2025-11-25 clients (recognised by the SDK's own classification) on the sessions they open, with their GET
// stream and resources/subscribe (mcp-sessions.ts). Every request is metered before the SDK sees it: each
// JSON-RPC message spends the read budget (a batch, each of at most 16).
import { randomUUID } from "node:crypto";
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type McpServerFactory,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Authenticator } from "../../shared/auth/authenticator.ts";
import type { Principal } from "../../shared/auth/principal.ts";
import { AppError } from "../../shared/errors/app-error.ts";
import { ChangeFeedHub } from "../../shared/history/change-feed.ts";
import { sendError, type App } from "../../shared/http/create-app.ts";
import { spendBudget, type RateLimits } from "../../shared/http/rate-limit.ts";
import { TrustedHosts } from "../../shared/http/trusted-hosts.ts";
import { PRIVATE_NO_STORE } from "../../shared/http/guard.ts";
import { scopeSchema, type Scope } from "../../shared/kernel/scopes.ts";
import type { CommandApiPorts } from "../command-api/command-api-ports.ts";
import { serveListen } from "./mcp-listen.ts";
import { buildMcpServer, type CallerState } from "./mcp-server.ts";
import { DEFAULT_SESSION_LIMITS, McpSessions, type McpSessionLimits } from "./mcp-sessions.ts";
import type { McpTool } from "./mcp-tool.ts";
import { ToolList } from "./tool-list.ts";
import { threadTools } from "./tools/thread-tools.ts";
import { directoryTools } from "./tools/directory-tools.ts";
import { notificationTools } from "./tools/notification-tools.ts";
import { readTools } from "./tools/read-tools.ts";
import { shareLinkTools } from "./tools/share-link-tools.ts";
import { writeTools } from "./tools/write-tools.ts";
import { sendWebResponse, webRequestOf } from "./web-exchange.ts";

const MCP_PATH = "/mcp";
const RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";

export interface McpPorts extends CommandApiPorts {
  readonly authenticator: Authenticator;
  readonly rateLimits?: RateLimits;
  /** PUBLIC_BASE_URL: the address clients reach the service at; else the request's own (trusted) host. */
  readonly publicBaseUrl: string | null;
  /** ALLOWED_HOSTS: further names the service answers /mcp by (shared/http/trusted-hosts.ts). */
  readonly allowedHosts?: readonly string[];
  readonly sessionLimits?: McpSessionLimits;
  /** Whether this server runs its OAuth authorization server (its issuer is the base URL). */
  readonly authorizationServer?: boolean;
}

/** Every tool, in the order clients list them; each session keeps those its caller's scopes allow. */
function allTools(ports: CommandApiPorts & { readonly publicBaseUrl: string | null }): McpTool[] {
  return [
    ...readTools(ports),
    ...directoryTools(ports),
    ...notificationTools(ports),
    ...threadTools(ports),
    ...writeTools(ports),
    ...shareLinkTools(ports),
  ];
}

/** Messages one POST may carry: a JSON-RPC batch larger than this is refused before any is handled. */
const MAX_BATCH_MESSAGES = 16;

const protocolMessage = z
  .object({ method: z.string().optional(), params: z.object({ name: z.unknown().optional() }).loose().optional() })
  .loose();

/** The one message of a request that is not a batch, as far as routing needs it. */
const methodOf = (body: unknown): string | null =>
  Array.isArray(body) ? null : (protocolMessage.safeParse(body).data?.method ?? null);

/**
 * The scopes a request needs, for the challenge of a 401: a tool's own scope for its call, pages:read for the
 * page resources, else every scope (the caller's first request, whatever it will do).
 */
function scopesNeeded(body: unknown, toolList: ToolList): readonly Scope[] {
  const message = Array.isArray(body) ? undefined : protocolMessage.safeParse(body).data;
  const name = message?.params?.name;
  if (message?.method === "tools/call" && typeof name === "string") {
    const scope = toolList.scopeOf(name);
    if (scope) return [scope];
  }
  if (message?.method?.startsWith("resources/") || message?.method === "subscriptions/listen") return ["pages:read"];
  return scopeSchema.options;
}

/**
 * The read-budget units a request's messages spend: one each (a batch counts each message, a GET or DELETE
 * counts one), except the messages whose handlers spend the budget of the route they stand for (a tools/call of
 * a tool the caller may call, resources/list, resources/read), which would otherwise be counted twice.
 */
function protocolUnits(body: unknown, callable: ReadonlySet<string>): number {
  if (body === undefined || body === null) return 1;
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  let units = 0;
  for (const raw of messages) {
    const message = protocolMessage.safeParse(raw).data;
    const method = message?.method;
    const name = message?.params?.name;
    const chargedByHandler =
      (method === "tools/call" && typeof name === "string" && callable.has(name)) ||
      method === "resources/list" ||
      method === "resources/read";
    if (!chargedByHandler) units += 1;
  }
  return units;
}

/** Only ever called once the request's Host is trusted (`refuseUntrusted`). */
const baseUrlOf = (ports: McpPorts, request: FastifyRequest): string =>
  (ports.publicBaseUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, "");

/** The MCP specification's MUST against DNS rebinding: a Host or a browser's Origin not this service's is refused. */
function refuseUntrusted(trusted: TrustedHosts, request: FastifyRequest): void {
  if (!trusted.host(request.headers.host))
    throw new AppError("host_not_allowed", "this server does not answer to that Host; see ALLOWED_HOSTS");
  if (!trusted.origin(request.headers.origin))
    throw new AppError("origin_not_allowed", "requests from pages of another origin are refused");
}

/** A JSON-RPC error outside any session (no request id to answer to). */
function rpcError(reply: FastifyReply, status: number, message: string) {
  return reply
    .code(status)
    .type("application/json")
    .send({ jsonrpc: "2.0", error: { code: -32000, message }, id: null });
}

export function registerMcp(app: App, ports: McpPorts): void {
  const tools = allTools(ports);
  const toolList = new ToolList(tools);
  const trusted = new TrustedHosts(ports.publicBaseUrl, ports.allowedHosts);
  const limits = ports.sessionLimits ?? DEFAULT_SESSION_LIMITS;
  // One change feed hub for the process's 2025 sessions and 2026 listen streams, over the read models.
  const hub = new ChangeFeedHub(ports.views, ports.projection, { maxPerUser: limits.maxPerUser, clock: ports.clock });
  const sessions = new McpSessions(hub, { clock: ports.clock, logger: ports.logger, limits });
  const serverPorts = {
    views: ports.views,
    clock: ports.clock,
    logger: ports.logger,
    toolList,
    ...(ports.rateLimits ? { rateLimits: ports.rateLimits } : {}),
  };
  // A 2026-07-28 request's caller, found by the SDK's factory from the Request it is handed.
  const callers = new WeakMap<Request, CallerState>();
  const factory: McpServerFactory = ({ requestInfo, era }) => {
    const caller = requestInfo ? callers.get(requestInfo) : undefined;
    if (!caller) throw new Error("an MCP request reached the server factory without its caller");
    return buildMcpServer(serverPorts, caller, tools, era);
  };
  const modern = createMcpHandler(factory, {
    legacy: "reject",
    onerror: (error) => ports.logger.debug({ event: "mcp.refused", err: error }),
  });
  app.addHook("onClose", async () => {
    await modern.close();
    await sessions.closeAll();
    await hub.stop();
  });

  const metadata = async (request: FastifyRequest) => {
    const base = baseUrlOf(ports, request);
    return {
      resource: `${base}${MCP_PATH}`,
      resource_name: "Workspace MCP server",
      scopes_supported: scopeSchema.options,
      bearer_methods_supported: ["header"],
      resource_documentation: `${base}/docs`,
      // The server's own authorization server (its metadata at /.well-known/oauth-authorization-server); API tokens work too.
      authorization_servers: ports.authorizationServer ? [base] : [],
      token_creation: `API tokens are created through the API: POST ${base}/api/v1/tokens with a browser session, naming the scopes (pages:read, pages:comment, pages:write); send the secret it answers as Authorization: Bearer <token>.`,
    };
  };
  for (const path of [RESOURCE_METADATA_PATH, `${RESOURCE_METADATA_PATH}${MCP_PATH}`]) {
    app.get(path, { schema: { hide: true } }, async (request, reply) => {
      refuseUntrusted(trusted, request);
      // Named after the request's Host when PUBLIC_BASE_URL is unset: no shared cache may keep it for others.
      return reply
        .header("cache-control", "private, max-age=3600")
        .header("vary", "Host")
        .send(await metadata(request));
    });
  }

  const authenticate = async (request: FastifyRequest, reply: FastifyReply): Promise<Principal | null> => {
    try {
      return await ports.authenticator.authenticate(
        { authorization: request.headers.authorization, cookie: request.headers.cookie },
        request.id,
      );
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== "unauthenticated") throw error;
      const challenge = `Bearer resource_metadata="${baseUrlOf(ports, request)}${RESOURCE_METADATA_PATH}", scope="${scopesNeeded(request.body, toolList).join(" ")}"`;
      sendError(reply.header("www-authenticate", challenge), error);
      return null;
    }
  };

  app.route({
    method: ["GET", "POST", "DELETE"],
    url: MCP_PATH,
    schema: { hide: true },
    handler: async (request, reply) => {
      refuseUntrusted(trusted, request);
      const principal = await authenticate(request, reply);
      if (!principal) return reply;
      // The transport answers on node's response: what it answers is this caller's alone.
      reply.raw.setHeader("cache-control", PRIVATE_NO_STORE);
      if (Array.isArray(request.body) && request.body.length > MAX_BATCH_MESSAGES) {
        return sendError(
          reply,
          new AppError("payload_too_large", `a JSON-RPC batch holds at most ${MAX_BATCH_MESSAGES} messages`),
        );
      }
      // Every protocol message spends the read budget as an HTTP request does, before the SDK handles any.
      if (ports.rateLimits) {
        const units = protocolUnits(request.body, toolList.callable(principal.scopes));
        // The transport answers on node's response, so the RateLimit fields go there.
        if (units > 0)
          for (const [name, value] of Object.entries(
            await spendBudget(ports.rateLimits, "read", { principal }, ports.logger, units),
          ))
            reply.raw.setHeader(name, value);
      }
      const requestId = request.id;
      // Handed to the SDK: its scope challenges (403) name the metadata as the 401 does.
      const authInfo: AuthInfo = {
        token: "",
        clientId: principal.user.id,
        scopes: principal.scopes ?? [...scopeSchema.options],
        resourceMetadataUrl: `${baseUrlOf(ports, request)}${RESOURCE_METADATA_PATH}`,
      };
      const web = webRequestOf(request, reply);
      if (await isLegacyRequest(web, request.body ?? undefined))
        return serveLegacy(request, reply, web, principal, authInfo);
      const caller: CallerState = { principal, requestId, subscriptions: new Set() };
      callers.set(web, caller);
      if (methodOf(request.body) === "subscriptions/listen") {
        await sendWebResponse(reply, await serveListen(hub, principal, factory, web, request.body, ports.logger));
        return reply;
      }
      await sendWebResponse(reply, await modern.fetch(web, { authInfo, parsedBody: request.body }));
      return reply;
    },
  });

  /** A 2025 client's request: on the session its Mcp-Session-Id names, or an initialize that opens one. */
  async function serveLegacy(
    request: FastifyRequest,
    reply: FastifyReply,
    web: Request,
    principal: Principal,
    authInfo: AuthInfo,
  ): Promise<FastifyReply> {
    const sessionHeader = request.headers["mcp-session-id"];
    const parsedBody: unknown = request.body ?? undefined;
    if (typeof sessionHeader === "string") {
      const session = sessions.find(sessionHeader, principal, request.id);
      // Another credential's session answers as an unknown one: the client starts a session of its own.
      if (!session) return rpcError(reply, 404, "Session not found");
      await sendWebResponse(reply, await session.transport.handleRequest(web, { parsedBody, authInfo }));
      return reply;
    }
    if (request.method !== "POST" || methodOf(parsedBody) !== "initialize") {
      return rpcError(
        reply,
        400,
        "Bad Request: no session; send initialize first, then the Mcp-Session-Id it answers (or speak the 2026-07-28 revision, which needs none)",
      );
    }
    const session = await sessions.open(principal, request.id, (state) => {
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => sessions.register(session, id),
      });
      return { transport, server: buildMcpServer(serverPorts, state, tools, "legacy") };
    });
    await session.server.connect(session.transport);
    await sendWebResponse(reply, await session.transport.handleRequest(web, { parsedBody, authInfo }));
    // An initialize the transport refused named no session: nothing may stay open for it.
    if (session.id === null) await sessions.close(session);
    return reply;
  }
}
