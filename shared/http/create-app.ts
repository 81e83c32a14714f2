// One fastify factory for every service: zod type provider, request ids, structured access logs (debug), and the
// single place where errors become `{error: {code, message}}` responses.
import { installRequestSpans } from "./request-spans.ts";
import { randomUUID } from "node:crypto";
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type RawServerDefault,
} from "fastify";
import type { FastifySchemaValidationError } from "fastify/types/schema.js";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import {
  hasZodFastifySchemaValidationErrors,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { Logger } from "pino";
import { AppError, errorCatalogue, type ErrorCode } from "../errors/app-error.ts";
import type { RequestMetrics } from "../metrics/metrics.port.ts";
import { installRateLimits, type RateLimits } from "./rate-limit.ts";
import { serializerCompiler } from "./response-serializer.ts";

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route takes a text/markdown or text/plain body (page content); every other route takes JSON only. */
    textBody?: boolean;
  }
}

const frameworkCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: "payload_too_large",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "unsupported_media_type",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "validation_failed",
  FST_ERR_CTP_EMPTY_JSON_BODY: "validation_failed",
  FST_ERR_CTP_INVALID_JSON_BODY: "validation_failed",
};

const statusCodes = new Map<number, ErrorCode>(
  Object.entries(errorCatalogue).map(([code, status]) => [status, code as ErrorCode]),
);

function describeValidation(error: FastifyError): string {
  if (!hasZodFastifySchemaValidationErrors(error)) return error.message;
  const where = error.validationContext ?? "request";
  // Typed here: fastify-type-provider-zod's declaration imports this type by a path NodeNext does not resolve.
  const problems = error.validation.map((problem: FastifySchemaValidationError) => {
    const path = problem.instancePath.replace(/^\//, "").replaceAll("/", ".");
    return `${where}${path ? `.${path}` : ""}: ${problem.message}`;
  });
  return problems.join("; ");
}

export function sendError(reply: FastifyReply, error: AppError) {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply
    .code(error.status)
    .type("application/json")
    .send({ error: { code: error.code, message: error.message } });
}

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What a request body may be: said in the 415 answer. */
const ACCEPTED_TYPES =
  "application/json; text/markdown or text/plain for page content; application/zip for a vault import";
/** Node's own default: long enough for a 10 MB upload over a slow link. */
const DEFAULT_REQUEST_TIMEOUT_MS = 300_000;
const JSON_ONLY = "application/json (only page content takes text/markdown or text/plain)";

/** A request the HTTP parser refused before fastify saw it (oversized headers, malformed request line). */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) return void socket.destroy();
  const [status, code, message, reason] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "headers_too_large", "the request's headers are too large", "Request Header Fields Too Large"]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "request_timeout", "the request was not received in time", "Request Timeout"]
        : [400, "validation_failed", "the request could not be parsed", "Bad Request"];
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Route patterns and their methods, so a known path asked with another method answers 405 with Allow. */
function methodsByPath(app: FastifyInstance) {
  const routes: Array<{ pattern: RegExp; methods: Set<string> }> = [];
  app.addHook("onRoute", (route) => {
    const source = route.url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z0-9_]+/g, "[^/]+");
    const pattern = new RegExp(`^${source}/?$`);
    let entry = routes.find((known) => known.pattern.source === pattern.source);
    if (!entry) {
      entry = { pattern, methods: new Set<string>() };
      routes.push(entry);
    }
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) entry.methods.add(method);
  });
  return (path: string): string[] =>
    [...new Set(routes.filter((route) => route.pattern.test(path)).flatMap((route) => [...route.methods]))].sort();
}

export function createApp(options: {
  logger: Logger;
  bodyLimit: number;
  requestTimeoutMs?: number;
  metrics?: RequestMetrics;
  /** Per-caller budgets (none when absent: the metrics-only servers). */
  rateLimits?: RateLimits;
  /** Proxies whose X-Forwarded-For names the client (addresses, CIDR ranges or proxy-addr's names). */
  trustProxy?: string;
}): App {
  const logger: FastifyBaseLogger = options.logger;
  const app = Fastify({
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimit,
    // A request whose headers and body have not all arrived in this time is answered 408 and closed.
    requestTimeout: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    // How often Node looks for such requests: a tenth of the timeout, at most its own default of 30 s.
    http: {
      connectionsCheckingInterval: Math.min(
        30_000,
        Math.max(100, Math.floor((options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS) / 10)),
      ),
    },
    // No child logger per request (costly at these rates): our log lines carry reqId themselves.
    childLoggerFactory: (parent) => parent,
    clientErrorHandler: answerClientError,
    ...(options.trustProxy ? { trustProxy: options.trustProxy } : {}),
    // Refusals the router makes before any route or error handler runs (a bad URL, a too-long parameter).
    frameworkErrors: (error, _request, reply) => {
      const refusal =
        error.code === "FST_ERR_MAX_PARAM_LENGTH"
          ? new AppError("uri_too_long", "a path parameter is too long")
          : new AppError("validation_failed", "the request's URL could not be read");
      void sendError(reply, refusal);
    },
    genReqId: (request) => {
      const given = request.headers["x-request-id"];
      return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.addContentTypeParser(["text/markdown", "text/plain"], { parseAs: "string" }, (request, body, done) => {
    if (request.routeOptions.config.textBody === true) return done(null, body);
    done(new AppError("unsupported_media_type", `unsupported content type; send ${JSON_ONLY}`));
  });

  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });
  installRequestSpans(app);
  if (options.rateLimits) installRateLimits(app, options.rateLimits, logger);
  app.addHook("onResponse", (request, reply, done) => {
    const route = request.routeOptions.url ?? "(unmatched)";
    options.metrics?.request(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    // One line per request at debug: at info (the default) it would cost every request a write to stdout; the
    // request counts and latencies are in the metrics, and unhandled errors are logged at error.
    if (options.logger.isLevelEnabled("debug")) {
      request.log.debug({
        event: "http.request",
        reqId: request.id,
        method: request.method,
        route,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
      });
    }
    done();
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) return sendError(reply, error);
    if (hasZodFastifySchemaValidationErrors(error))
      return sendError(reply, new AppError("validation_failed", describeValidation(error)));
    const frameworkCode = error.code ? frameworkCodes[error.code] : undefined;
    if (frameworkCode === "unsupported_media_type")
      return sendError(reply, new AppError(frameworkCode, `unsupported content type; send ${ACCEPTED_TYPES}`));
    if (frameworkCode) return sendError(reply, new AppError(frameworkCode, error.message));
    const status = error.statusCode ?? 500;
    const mapped = statusCodes.get(status);
    if (status < 500 && mapped) return sendError(reply, new AppError(mapped, error.message));
    request.log.error({ event: "http.error", reqId: request.id, err: error }, "unhandled error");
    return sendError(reply, new AppError("internal", `internal error; quote request id ${request.id}`));
  });

  const allowedMethods = methodsByPath(app);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0] ?? "";
    const allowed = allowedMethods(path);
    if (allowed.length > 0) {
      return sendError(
        reply,
        new AppError("method_not_allowed", `${request.method} is not allowed on ${path}; use ${allowed.join(", ")}`, {
          allow: allowed.join(", "),
        }),
      );
    }
    return sendError(reply, new AppError("not_found", `no route ${request.method} ${path}`));
  });

  return app.withTypeProvider<ZodTypeProvider>();
}

/**
 * How long a closing service waits for its open connections (a change feed, an MCP stream, a slow client) before
 * it cuts them and closes its stores. A container's stop_grace_period must leave it this and the stores' close
 * (docker-compose.yml).
 */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Closes the app gracefully: no new connections, in-flight requests finish. A connection still open after
 * `graceMs` (a client that never finishes its request or never reads its answer) is cut, so a shutdown always
 * ends.
 */
export async function closeApp(app: App, graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
  const timer = setTimeout(() => app.server.closeAllConnections(), graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
  }
}
