// GET /metrics in Prometheus text format, on a service's own port or, for a service without one (projector,
// notifier), on METRICS_PORT. Its counters are the business's (registrations, erasures, share links), so it
// answers only the monitoring: a request bearing METRICS_TOKEN, or, when none is set, a loopback client. The
// public gateway answers it 404 besides.
import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import type { FastifyRequest } from "fastify";
import type { Logger } from "pino";
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import type { Metrics } from "../metrics/metrics.port.ts";
import { createApp, type App } from "./create-app.ts";

/** Who may scrape: the holder of this token (METRICS_TOKEN), else loopback clients only. */
export interface MetricsAccess {
  readonly token: string | null;
}

const digest = (text: string): Buffer => createHash("sha256").update(text).digest();

function isLoopback(address: string): boolean {
  const plain = address.replace(/^::ffff:/, "");
  return isIP(plain) === 4 ? plain.startsWith("127.") : plain === "::1";
}

function admit(access: MetricsAccess, request: FastifyRequest): void {
  if (access.token === null) {
    if (!isLoopback(request.ip))
      throw new AppError(
        "forbidden",
        "metrics are served to loopback clients only; set METRICS_TOKEN to scrape from elsewhere",
      );
    return;
  }
  const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1] ?? "";
  // Digests of equal length, so the comparison takes the same time whatever was sent.
  if (!timingSafeEqual(digest(given), digest(access.token))) {
    throw new AppError("unauthenticated", "send the metrics token as Authorization: Bearer <METRICS_TOKEN>", {
      "www-authenticate": 'Bearer realm="metrics"',
    });
  }
}

export function metricsRoute(app: App, metrics: Pick<Metrics, "exposition">, access: MetricsAccess): void {
  app.get(
    "/metrics",
    { schema: { response: { 200: z.string().describe("Prometheus text format") } } },
    async (request, reply) => {
      admit(access, request);
      const { contentType, body } = await metrics.exposition();
      return reply.type(contentType).header("cache-control", "private, no-store").send(body);
    },
  );
}

/**
 * A server of /metrics, for a process that serves nothing else over HTTP, and of the routes `routes` adds (the
 * projector's /healthz and /readyz, which its container's health check asks).
 */
export async function serveMetrics(
  metrics: Metrics,
  options: { port: number; host: string; logger: Logger; access: MetricsAccess; routes?: (app: App) => void },
): Promise<{ url: string; close(): Promise<void> }> {
  const app = createApp({ logger: options.logger, bodyLimit: 1024, metrics });
  metricsRoute(app, metrics, options.access);
  options.routes?.(app);
  const url = await app.listen({ port: options.port, host: options.host });
  return { url, close: () => app.close() };
}
