// `npm run split` as an operator runs it: with pinned internal ports and three query nodes, every query node
// behind the gateway receives reads; SIGTERM to npm's own process (as a process manager sends it) stops every
// process it started: no port it used answers afterwards.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../deploy/free-port.ts";
import { gatewayUnavailable } from "../support/gateway.ts";
import { natsUnavailable } from "../support/nats-server.ts";
import { inheritedEnv } from "../support/server.ts";
import { tempDir } from "../support/temp-dir.ts";

const unavailable = gatewayUnavailable() ?? natsUnavailable();
if (unavailable) console.warn(`npm run split tests skipped: ${unavailable}`);

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

/** How many requests a service counted on a route, from its /metrics. */
async function requestsOn(port: number, route: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return text
    .split("\n")
    .filter((line) => line.startsWith("http_request_duration_seconds_count{") && line.includes(`route="${route}"`))
    .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
}

describe.skipIf(unavailable !== null)("npm run split", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let npm: ReturnType<typeof spawn>;
  let stderr = "";
  const ports = { gateway: 0, commandApi: 0, queryApis: [0, 0, 0], nats: 0 };

  beforeAll(async () => {
    dir = await tempDir();
    ports.gateway = await freePort();
    ports.commandApi = await freePort();
    ports.queryApis = [await freePort(), await freePort(), await freePort()];
    ports.nats = await freePort();
    npm = spawn(
      "npm",
      [
        "run",
        "split",
        "--",
        "--query-nodes",
        "3",
        "--command-api-port",
        String(ports.commandApi),
        "--query-api-ports",
        ports.queryApis.join(","),
        "--nats-port",
        String(ports.nats),
      ],
      {
        env: {
          ...inheritedEnv(),
          PORT: String(ports.gateway),
          DATA_DIR: dir.path,
          AUTH_SESSION_SECRET: "split-test-secret-that-is-long-enough-for-hs256",
        },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    npm.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const deadline = Date.now() + 240_000;
    while (!stderr.includes("split: gateway on")) {
      if (npm.exitCode !== null) throw new Error(`npm run split exited: ${stderr}`);
      if (Date.now() > deadline) throw new Error(`npm run split did not start: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 300_000);
  afterAll(async () => {
    if (npm && npm.exitCode === null && npm.signalCode === null) {
      npm.kill("SIGTERM");
      await once(npm, "exit");
    }
    await dir?.remove();
  });

  it("listens on the pinned ports and spreads reads over all three query nodes", async () => {
    expect(stderr).toContain(`command API :${ports.commandApi}`);
    for (const port of [ports.commandApi, ...ports.queryApis, ports.nats]) expect(await accepts(port)).toBe(true);
    for (let n = 0; n < 30; n += 1)
      expect((await fetch(`http://127.0.0.1:${ports.gateway}/api/v1/openapi.json`)).status).toBe(200);
    const served = await Promise.all(ports.queryApis.map((port) => requestsOn(port, "/api/v1/openapi.json")));
    expect(served.reduce((sum, count) => sum + count, 0)).toBe(30);
    for (const count of served) expect(count).toBeGreaterThan(0);
  });

  it("stops every process it started on SIGTERM to npm's process", async () => {
    npm.kill("SIGTERM");
    const [code] = (await once(npm, "exit")) as [number | null];
    expect(code).toBe(0);
    for (const port of [ports.gateway, ports.commandApi, ...ports.queryApis, ports.nats])
      expect(await accepts(port), `port ${port}`).toBe(false);
  }, 60_000);
});
