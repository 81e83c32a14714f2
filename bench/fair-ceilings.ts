// Fair ceilings for the HTTP rows: a bare fastify route answering the measured route's typical
// response (same bytes, same content type, same status) in its own process, driven the same way. A bare route
// answering a few bytes is not the limit for a 50-record list; one answering the same 30 KB is.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LoadFigures } from "./http-load.ts";
import { startChild } from "./processes.ts";

export interface MeasuredRoute {
  readonly name: string;
  readonly url: string;
  readonly method?: "GET" | "POST";
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

export interface SameBytes {
  readonly bytes: number;
  readonly contentType: string;
  readonly figures: LoadFigures;
}

type Run = (
  label: string,
  url: string,
  extra: { method?: "GET" | "POST"; headers?: Record<string, string>; body?: string },
) => Promise<LoadFigures>;

/** Asks each route once for its answer, then measures a bare route answering exactly that, one after another. */
export async function measureSameBytes(
  dir: string,
  routes: readonly MeasuredRoute[],
  run: Run,
): Promise<Record<string, SameBytes>> {
  const answers: Record<string, { status: number; contentType: string; base64: string }> = {};
  for (const route of routes) {
    const reply = await fetch(route.url, {
      method: route.method ?? "GET",
      headers: route.headers ?? {},
      ...(route.body === undefined ? {} : { body: route.body }),
    });
    const bytes = Buffer.from(await reply.arrayBuffer());
    answers[route.name] = {
      status: reply.status,
      contentType: reply.headers.get("content-type") ?? "application/octet-stream",
      base64: bytes.toString("base64"),
    };
  }
  const file = join(dir, "same-bytes.json");
  writeFileSync(file, JSON.stringify(answers));
  const server = await startChild("bench/same-bytes-server.ts", {}, "/ready", [], 60_000, [file]);
  try {
    const result: Record<string, SameBytes> = {};
    for (const route of routes) {
      const answer = answers[route.name];
      if (!answer) continue;
      const extra = {
        method: route.method ?? "GET",
        ...(route.body === undefined ? {} : { body: route.body, headers: { "content-type": "application/json" } }),
      };
      const figures = await run(`same-bytes ceiling for ${route.name}`, `${server.url}/same/${route.name}`, extra);
      result[route.name] = {
        bytes: Buffer.from(answer.base64, "base64").length,
        contentType: answer.contentType,
        figures,
      };
    }
    return result;
  } finally {
    await server.stop();
  }
}
