// The per-request cost of tracing: POST /pages (read-your-writes) against two fresh all-in-one servers of the
// same run, one with the OTEL_* variables unset and one exporting every span to a local OTLP/HTTP sink, which
// drains each export and answers 200 without decoding it (so the driver's CPU goes to the load, not the sink).
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mintSession } from "../shared/auth/session-verifier.ts";
import { load, type LoadFigures } from "./http-load.ts";
import { startChild } from "./processes.ts";
import { fmt, type Row } from "./report.ts";

export interface TracingCost {
  readonly off: LoadFigures;
  readonly on: LoadFigures;
  /** OTLP export requests the sink received from the traced server. */
  readonly exports: number;
}

const BODY = JSON.stringify({ title: "Traced page", markdown: "# Traced\n\nWritten under load." });

async function writes(
  env: Record<string, string>,
  options: { secret: string; seconds: number; connections: number },
): Promise<LoadFigures> {
  const dataDir = await mkdtemp(join(tmpdir(), "workspace-bench-tracing-"));
  const server = await startChild(
    "services/all-in-one.ts",
    {
      DATA_DIR: dataDir,
      AUTH_SESSION_SECRET: options.secret,
      LOG_LEVEL: "warn",
      ...env,
    },
    "/readyz",
  );
  try {
    const id = crypto.randomUUID();
    const cookie = `app-auth.session_token=${await mintSession(options.secret, { sub: id, email: `${id}@example.com`, name: "Tracer" })}`;
    await fetch(`${server.url}/api/v1/me`, { headers: { cookie } });
    return await load({
      url: `${server.url}/api/v1/pages`,
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: BODY,
      connections: options.connections,
      durationSeconds: options.seconds,
    });
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function benchTracingCost(options: {
  secret: string;
  seconds: number;
  connections: number;
  log: (line: string) => void;
}): Promise<TracingCost> {
  let exports = 0;
  const sink = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      exports += 1;
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
  try {
    options.log(`tracing cost: POST /pages for ${options.seconds} s with tracing off, then on`);
    // Off as an operator leaves it: the variables unset (empty counts as unset), whatever the bench's shell has.
    const off = await writes(
      { OTEL_EXPORTER_OTLP_ENDPOINT: "", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "", OTEL_TRACES_EXPORTER: "" },
      options,
    );
    const on = await writes({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: "1000" }, options);
    return { off, on, exports };
  } finally {
    sink.closeAllConnections();
    await new Promise<void>((resolve) => sink.close(() => resolve()));
  }
}

/** The write's cost per request with tracing on, as the difference of the mean time per request at full load. */
export function tracingRows(cost: TracingCost): Row[] {
  const perRequestUs = (1 / cost.on.requestsPerSecond - 1 / cost.off.requestsPerSecond) * 1e6;
  const ratio = cost.on.requestsPerSecond / cost.off.requestsPerSecond;
  return [
    {
      figure: "POST /pages with tracing on (every span exported over OTLP/HTTP to a local sink)",
      value: `${fmt(cost.on.requestsPerSecond)} req/s, p99 ${fmt(cost.on.p99Ms, 1)} ms (${fmt(cost.exports)} exports)`,
      reference: `tracing off: ${fmt(cost.off.requestsPerSecond)} req/s, p99 ${fmt(cost.off.p99Ms, 1)} ms; about ${fmt(Math.max(0, perRequestUs))} µs of the server's time per write`,
      ratio: fmt(ratio, 2),
      target: "report",
      verdict: "report",
    },
  ];
}
