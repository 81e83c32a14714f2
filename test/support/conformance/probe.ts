// Raw requests whose answers are checked against the API reference before a probe reads them: the requests that
// provoke what a script of the typed client never meets (refusals, conditions, a lagging read side, limits). Each
// answer goes through the same validator as the typed client's (test/support/openapi-conformance.ts).
import { randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import { mintSession, SESSION_COOKIE } from "../../../shared/auth/session-verifier.ts";
import type { ResponseConformance } from "../openapi-conformance.ts";
import { TEST_SESSION_SECRET } from "../server.ts";

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

export interface Sent {
  readonly headers?: Record<string, string>;
  /** A JSON body, sent with its media type. */
  readonly json?: unknown;
  /** Any other body, with its media type in `headers` (a FormData sets its own). */
  readonly body?: string | FormData | Uint8Array<ArrayBuffer>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** Sends requests to one server and checks each answer against the document. */
export class Prober {
  constructor(
    readonly baseUrl: string,
    private readonly conformance: ResponseConformance,
  ) {}

  async send(method: string, path: string, sent: Sent = {}): Promise<Answer> {
    const headers = { ...(sent.json === undefined ? {} : { "content-type": "application/json" }), ...sent.headers };
    const body = sent.json === undefined ? sent.body : JSON.stringify(sent.json);
    const response = await fetch(new URL(path, this.baseUrl), {
      method,
      headers,
      redirect: "manual",
      ...(body === undefined ? {} : { body }),
    });
    if (response.headers.get("content-type")?.startsWith("text/event-stream") === true) {
      // A stream stays open: its status and headers are checked, then it is let go.
      await this.conformance.check(method, response.url, response);
      await response.body?.cancel();
      return { status: response.status, headers: response.headers, text: "" };
    }
    await this.conformance.check(method, response.url, response.clone());
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  /**
   * A request that declares a body of `declaredBytes` and sends none of it, as a client does that waits for an
   * early refusal before sending a large upload; the connection is closed once the answer has come.
   */
  async declaring(
    method: string,
    path: string,
    declaredBytes: number,
    headers: Record<string, string>,
  ): Promise<Answer> {
    const url = new URL(path, this.baseUrl);
    const answer = await new Promise<{ status: number; headers: Headers; text: string }>((resolve, reject) => {
      const sent = httpRequest({
        host: url.hostname,
        port: url.port,
        method,
        path: url.pathname,
        headers: { ...headers, "content-length": String(declaredBytes) },
      });
      sent.on("response", (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => {
          sent.destroy();
          const answered = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
              answered.append(name, one);
          }
          resolve({ status: response.statusCode ?? 0, headers: answered, text });
        });
      });
      sent.on("error", reject);
      sent.flushHeaders();
    });
    await this.conformance.check(
      method,
      url.href,
      new Response(answer.text === "" ? null : answer.text, { status: answer.status, headers: answer.headers }),
    );
    return answer;
  }

  /** A caller sending these headers (a session cookie, an API token, or none). */
  as(headers: Record<string, string>): Agent {
    return new Agent(this, headers);
  }

  /** A person the server has not seen yet, signed in with a browser session. */
  async stranger(label: string): Promise<User> {
    const id = randomUUID();
    const email = `${label}-${id.slice(0, 8)}@example.com`;
    return new User(this, await sessionHeaders(id, email, label), id, email);
  }

  /** A person signed in with a browser session, registered by a first request. */
  async signIn(label: string): Promise<User> {
    const user = await this.stranger(label);
    expectAnswer(await user.get("/api/v1/me"), 200, `${label}'s first request`);
    return user;
  }

  /** An API token of `user` with these scopes, as a caller. */
  async token(user: User, scopes: readonly string[]): Promise<Agent> {
    const created = expectAnswer(
      await user.post("/api/v1/tokens", { name: `${scopes.join(" ")} ${randomUUID().slice(0, 8)}`, scopes }),
      201,
      "a token",
    );
    return this.as({ authorization: `Bearer ${read(created, "token")}` });
  }
}

export async function sessionHeaders(id: string, email: string, name: string): Promise<Record<string, string>> {
  return { cookie: `${SESSION_COOKIE}=${await mintSession(TEST_SESSION_SECRET, { sub: id, email, name })}` };
}

/** A caller: every request carries its headers. */
export class Agent {
  constructor(
    private readonly prober: Prober,
    readonly headers: Record<string, string>,
  ) {}

  send(method: string, path: string, sent: Sent = {}): Promise<Answer> {
    return this.prober.send(method, path, { ...sent, headers: { ...this.headers, ...sent.headers } });
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    return this.send("GET", path, { headers });
  }

  post(path: string, json?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    return this.send("POST", path, { headers, ...(json === undefined ? {} : { json }) });
  }

  patch(path: string, json: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    return this.send("PATCH", path, { headers, json });
  }

  put(path: string, json: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    return this.send("PUT", path, { headers, json });
  }

  delete(path: string, json?: unknown): Promise<Answer> {
    return this.send("DELETE", path, json === undefined ? {} : { json });
  }
}

/** A person with a browser session: their id and address besides the session. */
export class User extends Agent {
  constructor(
    prober: Prober,
    headers: Record<string, string>,
    readonly id: string,
    readonly email: string,
  ) {
    super(prober, headers);
  }
}

/** The answer, when it has the status expected; otherwise the probe stops with what was answered. */
export function expectAnswer(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status)
    throw new Error(`${what}: expected ${status}, got ${answer.status} ${answer.text.slice(0, 300)}`);
  return answer;
}

/** A string field of a JSON answer, by its dotted path (`thread.comments.1.id`). */
export function read(answer: Answer, path: string): string {
  let value: unknown = JSON.parse(answer.text);
  for (const key of path.split("."))
    value = Array.isArray(value) ? value[Number(key)] : isRecord(value) ? value[key] : undefined;
  if (typeof value !== "string") throw new Error(`expected ${path} in ${answer.status} ${answer.text.slice(0, 300)}`);
  return value;
}

/** A header the answer must carry. */
export function header(answer: Answer, name: string): string {
  const value = answer.headers.get(name);
  if (value === null) throw new Error(`expected ${name} on ${answer.status} ${answer.text.slice(0, 300)}`);
  return value;
}
