// `npm run erase` erases an account for an operator, by id or by address, as DELETE /me does.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToExit } from "../support/processes.ts";
import { productionStack, TEST_SESSION_SECRET, TestServer } from "../support/server.ts";
import { createPage } from "../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

const erase = (args: string[]) => runToExit("services/command-api/erase.cli.ts", { DATA_DIR: server.dataDir, AUTH_SESSION_SECRET: TEST_SESSION_SECRET, LOG_LEVEL: "silent", ...productionStack(server.dataDir) }, args);

function holding(dir: string, needle: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return holding(path, needle);
    return readFileSync(path).toString("latin1").toLowerCase().includes(needle.toLowerCase()) ? [path] : [];
  });
}

describe("npm run erase", () => {
  it("erases the account an address names: nothing under DATA_DIR names it, its session is refused", async () => {
    const email = "Operator.Erased-91c2@example.com";
    const gone = await server.registered("gone", { email, name: "Vexillia Gonewright" });
    const bob = await server.registered("bob");
    const pageId = await createPage(bob);
    let result: Awaited<ReturnType<typeof erase>> | null = null;
    await server.restart(async () => {
      result = await erase(["--email", email.toUpperCase()]);
    });
    expect(result).toMatchObject({ code: 0, stdout: expect.stringContaining(`erased user ${gone.id}`) });
    const deadline = Date.now() + 20_000;
    // The running server projects the erasure the tool appended: the session's account is gone.
    while ((await gone.get("/me")).status !== 401) {
      if (Date.now() > deadline) throw new Error("the account is still there");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await bob.get(`/pages/${pageId}`)).status).toBe(200);
    await server.restart(async () => {
      expect(holding(server.dataDir, "Vexillia Gonewright")).toEqual([]);
      expect(holding(server.dataDir, email)).toEqual([]);
    });
  });

  it("by id; an unknown account exits 1; --page and --folder are refused with the usage, which says they are not available yet", async () => {
    const ann = await server.registered("ann");
    let byId: Awaited<ReturnType<typeof erase>> | null = null;
    let again: Awaited<ReturnType<typeof erase>> | null = null;
    await server.restart(async () => {
      byId = await erase(["--user", ann.id]);
    });
    expect(byId).toMatchObject({ code: 0 });
    await server.restart(async () => {
      again = await erase(["--user", ann.id]);
    });
    expect(again).toMatchObject({ code: 1, stderr: expect.stringContaining("no such account") });
    const page = await erase(["--page", ann.id]);
    expect(page.code).toBe(2);
    expect(page.stderr).toContain("--page ID and --folder ID");
    expect(page.stderr).toContain("not available yet");
    expect((await erase([])).code).toBe(2);
  });
});
