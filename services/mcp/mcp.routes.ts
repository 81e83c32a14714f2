// The MCP server over Streamable HTTP at /mcp (POST messages, GET the server's stream, DELETE to end a
// session), and the RFC 9728 metadata that tells a client how to authenticate. A request carries an API
// token (`Authorization: Bearer`) or a browser session; without one it is 401 with a WWW-Authenticate that
// points at the metadata. The command API serves it: its tools write through the command functions and
// read the read models, and its sessions live in this process (docs/contributing/history-and-mcp.md, MCP server).
import { randomUUID } from "node:crypto";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Authenticator } from "../../shared/auth/authenticator.ts";
import type { Principal } from "../../shared/auth/principal.ts";
import { AppError } from "../../shared/errors/app-error.ts";
import { sendError, type App } from "../../shared/http/create-app.ts";
import type { RateLimits } from "../../shared/http/rate-limit.ts";
import { scopeSchema } from "../../shared/kernel/scopes.ts";
import type { CommandApiPorts } from "../command-api/command-api-ports.ts";
import { buildMcpServer } from "./mcp-server.ts";
import { DEFAULT_SESSION_LIMITS, McpSessions, type McpSessionLimits } from "./mcp-sessions.ts";
import type { McpTool } from "./mcp-tool.ts";
import { commentTools } from "./tools/comment-tools.ts";
import { readTools } from "./tools/read-tools.ts";
import { writeTools } from "./tools/write-tools.ts";

const MCP_PATH = "/mcp";
const RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";

export interface McpPorts extends CommandApiPorts {
  readonly authenticator: Authenticator;
  readonly rateLimits?: RateLimits;
  /** PUBLIC_BASE_URL: the address clients reach the service at; else the request's own host. */
  readonly publicBaseUrl: string | null;
  readonly sessionLimits?: McpSessionLimits;
}

/** Every tool, in the order clients list them; each session keeps those its caller's scopes allow. */
function allTools(ports: CommandApiPorts): McpTool[] {
  return [...readTools(ports), ...commentTools(ports), ...writeTools(ports)];
}

const baseUrlOf = (ports: McpPorts, request: FastifyRequest): string => (ports.publicBaseUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, "");

/** A JSON-RPC error outside any session (no request id to answer to). */
function rpcError(reply: FastifyReply, status: number, message: string) {
  return reply.code(status).type("application/json").send({ jsonrpc: "2.0", error: { code: -32000, message }, id: null });
}

/** Hands the request to a session's transport, which answers on node's response; fastify no longer does. */
async function handOver(transport: StreamableHTTPServerTransport, request: FastifyRequest, reply: FastifyReply, raw: FastifyRequest["raw"], logger: McpPorts["logger"]): Promise<void> {
  reply.hijack();
  try {
    await transport.handleRequest(raw, reply.raw, request.body);
  } catch (error) {
    logger.error({ event: "mcp.transport_failed", reqId: request.id, err: error });
    if (!reply.raw.headersSent) reply.raw.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: "internal", message: `internal error; quote request id ${request.id}` } }));
    else reply.raw.end();
  }
}

export function registerMcp(app: App, ports: McpPorts): void {
  const tools = allTools(ports);
  const sessions = new McpSessions(ports.views, ports.projection, { clock: ports.clock, logger: ports.logger, limits: ports.sessionLimits ?? DEFAULT_SESSION_LIMITS });
  app.addHook("onClose", async () => sessions.closeAll());

  const metadata = async (request: FastifyRequest) => {
    const base = baseUrlOf(ports, request);
    return {
      resource: `${base}${MCP_PATH}`,
      resource_name: "Workspace MCP server",
      scopes_supported: scopeSchema.options,
      bearer_methods_supported: ["header"],
      resource_documentation: `${base}/docs`,
      // No authorization server: tokens are created through the API (POST /api/v1/tokens, with a browser session).
      authorization_servers: [],
      token_creation: `API tokens are created through the API: POST ${base}/api/v1/tokens with a browser session, naming the scopes (pages:read, pages:comment, pages:write); send the secret it answers as Authorization: Bearer <token>.`,
    };
  };
  for (const path of [RESOURCE_METADATA_PATH, `${RESOURCE_METADATA_PATH}${MCP_PATH}`]) {
    app.get(path, { schema: { hide: true } }, async (request, reply) => reply.header("cache-control", "public, max-age=3600").send(await metadata(request)));
  }

  const authenticate = async (request: FastifyRequest, reply: FastifyReply): Promise<Principal | null> => {
    try {
      return await ports.authenticator.authenticate({ authorization: request.headers.authorization, cookie: request.headers.cookie }, request.id);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== "unauthenticated") throw error;
      const challenge = `Bearer resource_metadata="${baseUrlOf(ports, request)}${RESOURCE_METADATA_PATH}", scope="${scopeSchema.options.join(" ")}"`;
      sendError(reply.header("www-authenticate", challenge), error);
      return null;
    }
  };

  app.route({
    method: ["GET", "POST", "DELETE"],
    url: MCP_PATH,
    schema: { hide: true },
    handler: async (request, reply) => {
      const principal = await authenticate(request, reply);
      if (!principal) return reply;
      const sessionHeader = request.headers["mcp-session-id"];
      // The tools find the HTTP request that carried their call: its id is the events' correlation id.
      const raw = Object.assign(request.raw, { auth: { token: "", clientId: principal.user.id, scopes: principal.scopes ?? [...scopeSchema.options], extra: { requestId: request.id } } });
      if (typeof sessionHeader === "string") {
        const session = sessions.find(sessionHeader, principal);
        // Another credential's session answers as an unknown one: the client starts a session of its own.
        if (!session) return rpcError(reply, 404, "Session not found");
        await handOver(session.transport, request, reply, raw, ports.logger);
        return reply;
      }
      if (request.method !== "POST" || !isInitializeRequest(request.body)) {
        return rpcError(reply, 400, "Bad Request: no session; send initialize first, then the Mcp-Session-Id it answers");
      }
      const session = await sessions.open(principal, (state) => {
        const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: true,
          onsessioninitialized: (id) => sessions.register(session, id),
        });
        return { transport, server: buildMcpServer({ views: ports.views, clock: ports.clock, logger: ports.logger, ...(ports.rateLimits ? { rateLimits: ports.rateLimits } : {}) }, state, tools) };
      });
      await session.server.connect(session.transport);
      await handOver(session.transport, request, reply, raw, ports.logger);
      // An initialize the transport refused named no session: nothing may stay open for it.
      if (session.id === null) await sessions.close(session);
      return reply;
    },
  });
}
