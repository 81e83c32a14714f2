// Starts the real all-in-one server on a free port over real SQLite files, and talks to it over HTTP.
import { createHash, randomUUID } from "node:crypto";
import { startAllInOne, type AllInOneHooks, type RunningServer } from "../../services/all-in-one.ts";
import type { Clock } from "../../services/wiring/api-server.ts";
import { onProjectionStore, openProjectionStore } from "../../services/wiring/projector.ts";
import { mintSession, SESSION_COOKIE } from "../../shared/auth/session-verifier.ts";
import { loadConfig } from "../../shared/config/config.ts";
import { tempDir } from "./temp-dir.ts";
import { rebuildReadModels } from "../../services/projector/rebuild.ts";

/**
 * With WORKSPACE_TEST_STACK=production (the hosting service's CI), the servers tests start use the production
 * stores EVENTSTORE_URL and MONGODB_URL name; otherwise, and by default, the embedded ones.
 */
export function productionStack(dataDir: string): Record<string, string> {
  if (process.env.WORKSPACE_TEST_STACK !== "production") return {};
  const { EVENTSTORE_URL, MONGODB_URL } = process.env;
  // Each server (one DATA_DIR, kept across its restarts) gets a namespace of its own in EventStoreDB and a
  // database of its own in MongoDB: it starts on an empty workspace, as it does on the embedded stores.
  const own = `workspace-test-${createHash("sha256").update(dataDir).digest("hex").slice(0, 16)}`;
  const mongo = MONGODB_URL?.replace(/^(mongodb(?:\+srv)?:\/\/[^/?]+)(\/[^?]*)?/, `$1/${own}`);
  // The production stores keep no key-encryption key of their own in DATA_DIR: the services must be given one.
  const kek: Record<string, string> = EVENTSTORE_URL || mongo ? { ERASURE_KEK: TEST_ERASURE_KEK } : {};
  return {
    ...(EVENTSTORE_URL ? { EVENTSTORE_URL, EVENTSTORE_NAMESPACE: own } : {}),
    ...(mongo ? { MONGODB_URL: mongo } : {}),
    ...kek,
  };
}

/**
 * What a test's child process inherits: this process's environment without the production stores' URLs, so a
 * child opens the stores its test means (add productionStack(dataDir) to share a test server's).
 */
export function inheritedEnv(): NodeJS.ProcessEnv {
  const { EVENTSTORE_URL: _events, MONGODB_URL: _readModels, ...rest } = process.env;
  return rest;
}

export const TEST_SESSION_SECRET = "test-secret-that-is-long-enough-for-hs256-signing";
export const TEST_ERASURE_KEK = "test-key-encryption-key-long-enough-for-hkdf";

export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  // Parsed JSON body; tests assert on its shape.
  readonly body: Record<string, unknown> & { error?: { code: string; message: string } };
}

export type Credentials = { cookie: string } | { bearer: string } | null;

export class Client {
  constructor(
    readonly baseUrl: string,
    readonly credentials: Credentials,
  ) {}

  async call(
    method: string,
    path: string,
    options: {
      json?: unknown;
      body?: string | FormData | Uint8Array<ArrayBuffer>;
      headers?: Record<string, string>;
    } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.credentials && "cookie" in this.credentials)
      headers.cookie = `${SESSION_COOKIE}=${this.credentials.cookie}`;
    if (this.credentials && "bearer" in this.credentials) headers.authorization = `Bearer ${this.credentials.bearer}`;
    let body = options.body;
    if (options.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.json);
    }
    const url = `${this.baseUrl}${/^\/(api|healthz|readyz|internal)\b/.test(path) ? "" : "/api/v1"}${path}`;
    const init = { method, headers, ...(body === undefined ? {} : { body }) };
    // After a server restart the pool may hand out a kept-alive socket the old server closed: retry once.
    const response = await fetch(url, init).catch(() => fetch(url, init));
    const text = await response.text();
    let parsed: Reply["body"] = {};
    if ((response.headers.get("content-type") ?? "").includes("json") && text)
      parsed = JSON.parse(text) as Reply["body"];
    return { status: response.status, headers: response.headers, text, body: parsed };
  }

  get(path: string, headers?: Record<string, string>) {
    return this.call("GET", path, headers ? { headers } : {});
  }
  post(path: string, json?: unknown) {
    return this.call("POST", path, json === undefined ? {} : { json });
  }
  patch(path: string, json: unknown) {
    return this.call("PATCH", path, { json });
  }
  delete(path: string) {
    return this.call("DELETE", path);
  }
}

export interface TestUser extends Client {
  readonly id: string;
  readonly email: string;
  readonly name: string;
}

export class TestServer {
  private constructor(
    readonly dataDir: string,
    private running: RunningServer,
    private readonly removeDir: () => Promise<void>,
    private readonly clock: Clock,
    private readonly settings: Record<string, string>,
    private readonly hooks: AllInOneHooks,
  ) {}

  /**
   * `clock` lets a test move the server's time (e.g. past an invitation's expiry); sessions keep real time.
   * `hooks` are what a test gives the server besides its environment (a certificate authority to trust).
   */
  static async start(
    options: { dataDir?: string; clock?: Clock; settings?: Record<string, string>; hooks?: AllInOneHooks } = {},
  ): Promise<TestServer> {
    const dir = options.dataDir ? { path: options.dataDir, remove: async () => undefined } : await tempDir();
    const clock = options.clock ?? (() => new Date());
    const settings = options.settings ?? {};
    const hooks = options.hooks ?? {};
    const running = await TestServer.boot(dir.path, clock, settings, hooks);
    return new TestServer(dir.path, running, dir.remove, clock, settings, hooks);
  }

  /** `settings` are environment variables on top of the test defaults (e.g. CONSISTENCY_WAIT_MS). */
  private static boot(
    dataDir: string,
    clock: Clock,
    settings: Record<string, string>,
    hooks: AllInOneHooks,
    port = 0,
  ): Promise<RunningServer> {
    const env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: "silent",
      AUTH_SESSION_SECRET: TEST_SESSION_SECRET,
      ...productionStack(dataDir),
      ...settings,
    };
    return startAllInOne(loadConfig(env), undefined, clock, hooks);
  }

  get url(): string {
    return this.running.url;
  }

  get internals(): RunningServer {
    return this.running;
  }

  anonymous(): Client {
    return new Client(this.url, null);
  }

  /** A signed-in browser user; registered on its first request. */
  async signIn(
    label: string,
    options: { email?: string; name?: string; id?: string; picture?: string; expiresInSeconds?: number } = {},
  ): Promise<TestUser> {
    const id = options.id ?? randomUUID();
    const email = options.email ?? `${label}-${id.slice(0, 8)}@example.com`;
    const name = options.name ?? label;
    const cookie = await mintSession(
      TEST_SESSION_SECRET,
      { sub: id, email, name, ...(options.picture ? { picture: options.picture } : {}) },
      options.expiresInSeconds,
    );
    return Object.assign(new Client(this.url, { cookie }), { id, email, name });
  }

  /** A signed-in user who has made a request, so their account exists. */
  async registered(
    label: string,
    options: { email?: string; name?: string; picture?: string } = {},
  ): Promise<TestUser> {
    const user = await this.signIn(label, options);
    const me = await user.get("/me");
    if (me.status !== 200) throw new Error(`registration failed: ${me.text}`);
    return user;
  }

  /** An API token of `user` with these scopes, as a client. */
  async tokenClient(user: TestUser, scopes: string[]): Promise<Client> {
    const created = await user.post("/tokens", { name: `token ${scopes.join(" ")}`, scopes });
    if (created.status !== 201) throw new Error(`token creation failed: ${created.text}`);
    return new Client(this.url, { bearer: String(created.body.token) });
  }

  /** Empties the read models and replays the whole history into them, with the projector paused. */
  async rebuildReadModels(): Promise<void> {
    const { projector, config, eventStore, logger } = this.running;
    await projector.stop();
    const store = await openProjectionStore(config);
    await onProjectionStore(store, (typed) => rebuildReadModels({ eventStore, store: typed, logger }));
    await store.close();
    await projector.start();
  }

  /**
   * Stops and starts the server on the same port and data directory, so existing clients keep working;
   * `whileStopped` runs in between (e.g. an offline tool over DATA_DIR).
   */
  async restart(whileStopped: () => Promise<void> = async () => undefined): Promise<void> {
    const port = Number(new URL(this.running.url).port);
    await this.running.close();
    await whileStopped();
    this.running = await TestServer.boot(this.dataDir, this.clock, this.settings, this.hooks, port);
  }

  async stop(): Promise<void> {
    await this.running.close();
    await this.removeDir();
  }
}
