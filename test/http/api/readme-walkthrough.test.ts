// The README's walkthrough, run as written against a fresh server: what a newcomer pastes must work.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { inheritedEnv, productionStack, TEST_SESSION_SECRET, TestServer } from "../../support/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

it("runs the README's walkthrough on a fresh data directory and reads the page's markdown back", async () => {
  const readme = readFileSync("README.md", "utf8");
  const walkthrough = /## Walkthrough[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(walkthrough).toBeDefined();
  // Not spawnSync: the server under test runs in this process and must keep answering.
  const shell = spawn("bash", ["-euo", "pipefail", "-c", walkthrough ?? ""], {
    env: {
      ...inheritedEnv(),
      ...productionStack(server.dataDir),
      BASE: server.url,
      DATA_DIR: server.dataDir,
      AUTH_SESSION_SECRET: TEST_SESSION_SECRET,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  shell.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  shell.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(shell, "exit")) as [number | null];
  expect(code, stderr).toBe(0);
  expect(stdout).toContain('"email":"ann@example.com"');
  expect(stdout).toContain('"folderPath":"Projects"');
  expect(stdout).toContain('title: "Q4 plan"');
  expect(stdout).toContain("# Goals\n\nShip it.");
  // The walkthrough's token may comment: the thread is opened on the quoted sentence.
  expect(stdout).toContain('"quote":"Ship it."');
}, 90_000);
