// The services as separate processes: split over one DATA_DIR, configuration errors, graceful shutdown.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readlinkSync, statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mintSession } from "../../../shared/auth/session-verifier.ts";
import { Client, inheritedEnv, TEST_SESSION_SECRET, TestServer } from "../../support/server.ts";
import { runToExit, startProcess, startServiceProcess } from "../../support/processes.ts";
import { startSplitServices } from "../../support/split-services.ts";
import { tempDir } from "../../support/temp-dir.ts";

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe("service processes", () => {
  it("runs command API, query API, projector and notifier as separate processes over one DATA_DIR", async () => {
    const split = await startSplitServices();
    cleanups.push(split.stop);
    const {
      env,
      commandApi,
      queryApis: [queryApi],
    } = split;
    if (!queryApi) throw new Error("no query node");
    const cookie = await mintSession(TEST_SESSION_SECRET, {
      sub: crypto.randomUUID(),
      email: "split@example.com",
      name: "Split",
    });
    const writer = new Client(commandApi.url, { cookie });
    const reader = new Client(queryApi.url, { cookie });
    const created = await writer.post("/pages", { title: "Across processes" });
    expect(created.status).toBe(201);
    const read = await reader.get(`/pages/${String(created.body.id)}`, {
      "x-consistency-token": created.headers.get("x-consistency-token") ?? "",
    });
    expect(read.status).toBe(200);
    expect(read.body.title).toBe("Across processes");
    const refused = await reader.post("/pages", { title: "no writes here" });
    expect(refused.status).toBe(405);
    expect(refused.headers.get("allow")).toBe("GET, HEAD");
    // The notifier on its own delivers an invitation queued through the command API.
    const notifier = spawn(process.execPath, ["--import", "tsx", "services/notifier/main.ts"], {
      env: { ...inheritedEnv(), LOG_LEVEL: "silent", ...env },
      stdio: "ignore",
    });
    cleanups.push(async () => {
      notifier.kill("SIGTERM");
      await once(notifier, "exit");
    });
    const invited = await writer.post(`/shares/entity/page/${String(created.body.id)}/grants`, {
      email: "nobody-yet@example.com",
      permission: "view",
    });
    expect(invited.status).toBe(202);
    const deadline = Date.now() + 15_000;
    let mails: string[] = [];
    while (mails.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      mails = (await readdir(join(split.dataDir, "outbox")).catch(() => [])).filter((name) => name.endsWith(".eml"));
    }
    expect(mails).toHaveLength(1);
  });

  it("serves a new user's first request from a query node that holds no event store, with what was shared before they signed up", async () => {
    const split = await startSplitServices();
    cleanups.push(split.stop);
    const {
      commandApi,
      queryApis: [queryApi],
    } = split;
    if (!queryApi) throw new Error("no query node");

    const ownerCookie = await mintSession(TEST_SESSION_SECRET, {
      sub: crypto.randomUUID(),
      email: "owner@example.com",
      name: "Owner",
    });
    const owner = new Client(commandApi.url, { cookie: ownerCookie });
    const page = await owner.post("/pages", { title: "Shared before sign-up" });
    const invited = await owner.post(`/shares/entity/page/${String(page.body.id)}/grants`, {
      email: "newcomer@example.com",
      permission: "comment",
    });
    expect(invited.status).toBe(202);

    // The newcomer's very first request goes to the query node: it asks the command API to register them
    // (which accepts the invitation) and waits for its read models before answering.
    const newcomerCookie = await mintSession(TEST_SESSION_SECRET, {
      sub: crypto.randomUUID(),
      email: "newcomer@example.com",
      name: "Newcomer",
    });
    const newcomer = new Client(queryApi.url, { cookie: newcomerCookie });
    const pages = await newcomer.get("/pages");
    expect(pages.status).toBe(200);
    expect(pages.body.data).toEqual([expect.objectContaining({ id: page.body.id, permission: "comment" })]);
    expect((await newcomer.get("/me")).body).toMatchObject({ email: "newcomer@example.com", name: "Newcomer" });

    // An API token used on the query node has its use recorded by the command API.
    const token = await owner.post("/tokens", { name: "reader", scopes: ["pages:read"] });
    const bot = new Client(queryApi.url, { bearer: String(token.body.token) });
    expect((await bot.get(`/pages/${String(page.body.id)}`)).status).toBe(200);
    const deadline = Date.now() + 10_000;
    let lastUsedAt: unknown = null;
    while (lastUsedAt === null && Date.now() < deadline) {
      const tokens = await new Client(queryApi.url, { cookie: ownerCookie }).get("/tokens");
      lastUsedAt = (tokens.body.data as Array<{ lastUsedAt: string | null }>)[0]?.lastUsedAt ?? null;
      if (lastUsedAt === null) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(lastUsedAt).toEqual(expect.any(String));

    // A consistency token beyond the log's head is refused at once; one without credentials is refused first.
    expect((await newcomer.get("/pages", { "x-consistency-token": "18446744073709551615" })).status).toBe(400);
    expect((await new Client(queryApi.url, null).get("/pages", { "x-consistency-token": "999999999" })).status).toBe(
      401,
    );

    // The query node never opened the event store: no descriptor of it points at events.sqlite. (On the
    // production stack it holds no SQLite file at all: its read models are in MongoDB.)
    const openFiles = readdirSync(`/proc/${String(queryApi.child.pid)}/fd`).map((fd) => {
      try {
        return readlinkSync(`/proc/${String(queryApi.child.pid)}/fd/${fd}`);
      } catch {
        return "";
      }
    });
    expect(openFiles.some((file) => file.endsWith("read-models.sqlite"))).toBe(
      process.env.WORKSPACE_TEST_STACK !== "production",
    );
    expect(openFiles.filter((file) => file.includes("events.sqlite"))).toEqual([]);
  });

  it("refuses to start on a bad configuration value and names the variable", async () => {
    const result = await runToExit("services/all-in-one.ts", {
      PORT: "not-a-port",
      DATA_DIR: "/tmp/unused-workspace-test",
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("PORT");
  });

  it("npm run replay rebuilds the read models of a stopped server with the same answers", async () => {
    const server = await TestServer.start();
    cleanups.push(() => server.stop());
    const user = await server.signIn("replayer");
    const folder = await user.post("/folders", { name: "Kept" });
    await user.post("/pages", { title: "Replayed", parentId: folder.body.id, markdown: "body" });
    const before = (await user.get("/pages")).text;
    await server.restart(async () => {
      const result = await runToExit("services/projector/replay.cli.ts", {
        DATA_DIR: server.dataDir,
        AUTH_SESSION_SECRET: TEST_SESSION_SECRET,
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/replayed \d+ events/);
    });
    expect((await user.get("/pages")).text).toBe(before);
  });

  it("creates a session secret in DATA_DIR when none is configured, keeps it, and npm run session signs with it", async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const first = await startServiceProcess("services/all-in-one.ts", { DATA_DIR: dir.path, AUTH_SESSION_SECRET: "" });
    const minted = await runToExit("shared/auth/mint-session.cli.ts", { DATA_DIR: dir.path, AUTH_SESSION_SECRET: "" }, [
      "--email",
      "local@example.com",
      "--name",
      "Local",
    ]);
    expect(minted.code).toBe(0);
    const cookie = minted.stdout.trim();
    expect((await new Client(first.url, { cookie }).get("/me")).body).toMatchObject({
      email: "local@example.com",
      name: "Local",
    });
    expect((statSync(join(dir.path, "session-secret")).mode & 0o777).toString(8)).toBe("600");
    await first.stop();
    const second = await startServiceProcess("services/all-in-one.ts", { DATA_DIR: dir.path, AUTH_SESSION_SECRET: "" });
    cleanups.push(() => second.stop());
    expect((await new Client(second.url, { cookie }).get("/me")).status).toBe(200);
  });

  it("shuts down gracefully on SIGTERM", async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const service = await startServiceProcess("services/all-in-one.ts", { DATA_DIR: dir.path });
    service.child.kill("SIGTERM");
    const code = await new Promise<number | null>((resolve) =>
      service.child.once("exit", (exitCode) => resolve(exitCode)),
    );
    expect(code).toBe(0);
  });

  it("stops the server gracefully when the process that npm start started is stopped", async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const npm = await startProcess("npm", ["start"], { DATA_DIR: dir.path, AUTH_SESSION_SECRET: TEST_SESSION_SECRET });
    cleanups.push(() => npm.stop());
    expect((await fetch(`${npm.url}/healthz`)).status).toBe(200);
    npm.child.kill("SIGTERM");
    await once(npm.child, "exit");
    const deadline = Date.now() + 10_000;
    let answering = true;
    while (answering && Date.now() < deadline) {
      answering = await fetch(`${npm.url}/healthz`).then(
        () => true,
        () => false,
      );
      if (answering) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(answering).toBe(false);
  }, 120_000);
});
