// Drives a URL with autocannon from this process and reduces the result to the figures the table shows.
import autocannon from "autocannon";
import { z } from "zod";

export interface LoadFigures {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Requests without an answer: socket errors and timeouts (autocannon counts a timeout among its errors). */
  readonly errors: number;
  readonly non2xx: number;
  /** What the failures were, by status code ("502") or socket error code ("ECONNRESET", "timeout"). */
  readonly failures: Record<string, number>;
}

const errorCode = z.object({ code: z.string() });

/** The number of failed requests and what they were: "0 failed", "9 failed (ECONNRESET 7, 502 2)". */
export function failedText(f: LoadFigures): string {
  const kinds = Object.entries(f.failures).map(([kind, count]) => `${kind} ${count}`);
  return `${f.errors + f.non2xx} failed${kinds.length > 0 ? ` (${kinds.join(", ")})` : ""}`;
}

export async function load(options: {
  url: string;
  connections: number;
  durationSeconds: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string | Buffer;
}): Promise<LoadFigures> {
  const failures: Record<string, number> = {};
  const count = (kind: string) => {
    failures[kind] = (failures[kind] ?? 0) + 1;
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.durationSeconds,
        method: options.method ?? "GET",
        headers: options.headers ?? {},
        ...(options.body === undefined ? {} : { body: options.body }),
      },
      (error: unknown, done: autocannon.Result) =>
        error
          ? reject(error instanceof Error ? error : new Error("autocannon failed", { cause: error }))
          : resolve(done),
    );
    instance.on("reqError", (error: unknown) => {
      const coded = errorCode.safeParse(error);
      count(
        coded.success
          ? coded.data.code
          : error instanceof Error && error.message === "request timed out"
            ? "timeout"
            : "socket error",
      );
    });
    instance.on("response", (_client, statusCode) => {
      if (statusCode < 200 || statusCode > 299) count(String(statusCode));
    });
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    failures,
  };
}
