// What a worst case is (an input, what it consumes, the request), and the few ways the cases build requests and
// make what they consume through the public API.
import { randomUUID } from "node:crypto";
import type { Worst } from "../fixture.ts";
import { call, jsonHeaders, type Caller } from "../fixture/calls.ts";

export interface WorstRequest {
  readonly method: string;
  /** From the server's root: `/api/v1/...`. */
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Uint8Array<ArrayBuffer>;
  /** An endless answer (an event stream): read for this long, then hang up. */
  readonly readForMs?: number;
}

interface WorstCase {
  /** What makes this input the worst within the limits. */
  readonly input: string;
  /** Makes what `iterations` requests consume; its result is handed to `request`. */
  readonly prepare?: (w: Worst, iterations: number) => Promise<string[]>;
  readonly request: (w: Worst, prepared: string, iteration: number) => Promise<WorstRequest> | WorstRequest;
  /** Fewer iterations for the operations that are minutes at their worst. */
  readonly maxIterations?: number;
  /** Statuses that are the worst case itself (a wrong password's 401), not failures. */
  readonly expected?: readonly number[];
}

/** The worst cases of one capability, keyed by method and OpenAPI path. */
export type WorstCases = Record<string, WorstCase>;

export const api = (path: string): string => `/api/v1${path}`;

export const get = (caller: Caller, path: string): WorstRequest => ({
  method: "GET",
  path: api(path),
  headers: { cookie: caller.cookie },
});

export const send = (caller: Caller, method: string, path: string, body?: unknown): WorstRequest => ({
  method,
  path: api(path),
  headers: body === undefined ? { cookie: caller.cookie } : jsonHeaders(caller),
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

/** An untimed call made while preparing: its JSON answer, or an error on a refusal. */
export async function json(
  w: Worst,
  caller: Caller,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ body: Record<string, unknown> }> {
  const reply = await call(w.api, path, {
    method,
    headers: body === undefined ? { cookie: caller.cookie } : jsonHeaders(caller),
    body,
  });
  return {
    body: typeof reply.body === "object" && reply.body !== null ? (reply.body as Record<string, unknown>) : {},
  };
}

/** The id of a created record, at the top of the answer or in its `thread`, `invitation` or `member`. */
export const idOf = (body: Record<string, unknown>): string => {
  const nested = ["thread", "invitation", "member"]
    .map((k) => body[k])
    .find((v): v is Record<string, unknown> => typeof v === "object" && v !== null);
  const id = body.id ?? nested?.id;
  if (typeof id !== "string") throw new Error(`no id in ${JSON.stringify(body).slice(0, 200)}`);
  return id;
};

/** `n` things made one after another (each iteration consumes one). */
export const many = async (n: number, make: (i: number) => Promise<string>): Promise<string[]> => {
  const made: string[] = [];
  for (let i = 0; i < n; i += 1) made.push(await make(i));
  return made;
};

/** One thing made once and used by every iteration. */
export const repeated = (n: number, value: string): string[] => Array.from({ length: n }, () => value);

export const etagOf = async (w: Worst, pageId: string): Promise<string> =>
  (await fetch(`${w.api}/pages/${pageId}/content`, { headers: { cookie: w.owner.cookie } })).headers.get("etag") ?? "";

export const newEmail = (): string => `invitee-${randomUUID().slice(0, 8)}@worst.example`;
