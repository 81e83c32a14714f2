// The services as separate processes: split over one DATA_DIR, configuration errors, graceful shutdown.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mintSession } from "../../shared/auth/session-verifier.ts";
import { Client, TEST_SESSION_SECRET, TestServer } from "../support/server.ts";
import { runToExit, startServiceProcess, type ServiceProcess } from "../support/processes.ts";
import { tempDir } from "../support/temp-dir.ts";

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe("service processes", () => {
  it("runs command API, query API, projector and notifier as separate processes over one DATA_DIR", async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const env = { DATA_DIR: dir.path, AUTH_SESSION_SECRET: TEST_SESSION_SECRET };
    const projector = spawn(process.execPath, ["--import", "tsx", "services/projector/main.ts"], { env: { ...process.env, LOG_LEVEL: "silent", ...env }, stdio: "ignore" });
    cleanups.push(async () => {
      projector.kill("SIGTERM");
      await once(projector, "exit");
    });
    const services: ServiceProcess[] = [];
    for (const entry of ["services/command-api/main.ts", "services/query-api/main.ts"]) {
      const service = await startServiceProcess(entry, env);
      services.push(service);
      cleanups.push(() => service.stop());
    }
    const [commandApi, queryApi] = services;
    if (!commandApi || !queryApi) throw new Error("services did not start");
    const cookie = await mintSession(TEST_SESSION_SECRET, { sub: crypto.randomUUID(), email: "split@example.com", name: "Split" });
    const writer = new Client(commandApi.url, { cookie });
    const reader = new Client(queryApi.url, { cookie });
    const created = await writer.post("/pages", { title: "Across processes" });
    expect(created.status).toBe(201);
    const read = await reader.get(`/pages/${String(created.body.id)}`, { "x-consistency-token": created.headers.get("x-consistency-token") ?? "" });
    expect(read.status).toBe(200);
    expect(read.body.title).toBe("Across processes");
    expect((await reader.post("/pages", { title: "no writes here" })).status).toBe(404);

    // The notifier on its own delivers an invitation queued through the command API.
    const notifier = spawn(process.execPath, ["--import", "tsx", "services/notifier/main.ts"], { env: { ...process.env, LOG_LEVEL: "silent", ...env }, stdio: "ignore" });
    cleanups.push(async () => {
      notifier.kill("SIGTERM");
      await once(notifier, "exit");
    });
    const invited = await writer.post(`/shares/entity/page/${String(created.body.id)}/grants`, { email: "nobody-yet@example.com", permission: "view" });
    expect(invited.status).toBe(202);
    const deadline = Date.now() + 15_000;
    let mails: string[] = [];
    while (mails.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      mails = (await readdir(join(dir.path, "outbox")).catch(() => [])).filter((name) => name.endsWith(".eml"));
    }
    expect(mails).toHaveLength(1);
  });

  it("refuses to start on a bad configuration value and names the variable", async () => {
    const result = await runToExit("services/all-in-one.ts", { PORT: "not-a-port", DATA_DIR: "/tmp/unused-workspace-test" });
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
      const result = await runToExit("services/projector/replay.cli.ts", { DATA_DIR: server.dataDir, AUTH_SESSION_SECRET: TEST_SESSION_SECRET });
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/replayed \d+ events/);
    });
    expect((await user.get("/pages")).text).toBe(before);
  });

  it("creates a session secret in DATA_DIR when none is configured, keeps it, and npm run session signs with it", async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const first = await startServiceProcess("services/all-in-one.ts", { DATA_DIR: dir.path, AUTH_SESSION_SECRET: "" });
    const minted = await runToExit("shared/auth/mint-session.cli.ts", { DATA_DIR: dir.path, AUTH_SESSION_SECRET: "" }, ["--email", "local@example.com", "--name", "Local"]);
    expect(minted.code).toBe(0);
    const cookie = minted.stdout.trim();
    expect((await new Client(first.url, { cookie }).get("/me")).body).toMatchObject({ email: "local@example.com", name: "Local" });
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
    const code = await new Promise<number | null>((resolve) => service.child.once("exit", (exitCode) => resolve(exitCode)));
    expect(code).toBe(0);
  });
});
