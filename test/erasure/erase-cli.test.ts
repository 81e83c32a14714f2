// `npm run erase` erases an account for an operator, by id or by address, as DELETE /me does, or one page's or
// folder's content, live or in the trash, as a purge from the trash does.
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toNewEvents } from "../../shared/commands/new-events.ts";
import { userIdSchema } from "../../shared/kernel/ids.ts";
import { until } from "../support/poll.ts";
import { runToExit } from "../support/processes.ts";
import { productionStack, TEST_SESSION_SECRET, TestServer } from "../support/server.ts";
import { createFolder, createPage, share } from "../support/workspace-builders.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

const erase = (args: string[]) =>
  runToExit(
    "services/command-api/erase.cli.ts",
    {
      DATA_DIR: server.dataDir,
      AUTH_SESSION_SECRET: TEST_SESSION_SECRET,
      LOG_LEVEL: "silent",
      ...productionStack(server.dataDir),
    },
    args,
  );

/** Files under `dir` holding `needle`; none while `dir` does not exist yet (the outbox appears with its first mail). */
function holding(dir: string, needle: string): string[] {
  if (!existsSync(dir)) return [];
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

  it("erases an address that was only invited: its invitations are cancelled and name it no more, nothing under DATA_DIR holds it", async () => {
    const email = "Invited.Only-5d1e@example.com";
    const bob = await server.registered("bob");
    const pageId = await createPage(bob);
    const folderId = await createFolder(bob);
    expect((await share(bob, "page", pageId, email, "view")).status).toBe(202);
    expect((await share(bob, "folder", folderId, email, "edit")).status).toBe(202);
    await until(() => holding(join(server.dataDir, "outbox"), email).length >= 2, "the invitation mails written");
    let result: Awaited<ReturnType<typeof erase>> | null = null;
    await server.restart(async () => {
      result = await erase(["--email", email.toUpperCase()]);
    });
    expect(result).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("erased an address without an account: 2 invitations"),
    });
    const pending = async () =>
      (await bob.get(`/shares/entity/page/${pageId}`)).text + (await bob.get(`/shares/entity/folder/${folderId}`)).text;
    await until(
      async () => !(await pending()).toLowerCase().includes(email.toLowerCase()),
      "the invitations no longer naming the address",
    );
    await server.restart(async () => {
      expect(holding(server.dataDir, email)).toEqual([]);
    });
    await server.rebuildReadModels();
    await server.restart(async () => {
      expect(holding(server.dataDir, email)).toEqual([]);
    });
    // As an address never seen: sharing with it invites it afresh.
    expect((await share(bob, "page", pageId, email, "view")).status).toBe(202);
  });

  it("an erasure cut short after its start refuses the account's every request (a new name, a new page), and the tool completes it", async () => {
    const name = "Ophelia Startwright";
    const ann = await server.registered("ann", { name });
    const token = await server.tokenClient(ann, ["pages:write"]);
    // The erasure's first step, as a crash right after it would leave it.
    const started = [
      {
        type: "UserErasureStarted" as const,
        data: { userId: userIdSchema.parse(ann.id), startedAt: new Date().toISOString() },
      },
    ];
    await server.internals.eventStore.append(
      `user-${ann.id}`,
      toNewEvents(started, { actorId: userIdSchema.parse(ann.id), correlationId: "erase", now: new Date() }),
      "any",
    );
    const deadline = Date.now() + 20_000;
    while ((await ann.get("/me")).status !== 401) {
      if (Date.now() > deadline) throw new Error("the account is still served");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const renamed = await server.signIn("ann", { id: ann.id, email: ann.email, name: "Ophelia Renamedwright" });
    expect((await renamed.get("/me")).status).toBe(401);
    expect((await ann.post("/pages", { title: "Zanzibarite plans", markdown: "" })).status).toBe(401);
    expect((await token.post("/pages", { title: "Zanzibarite plans", markdown: "" })).status).toBe(401);

    let result: Awaited<ReturnType<typeof erase>> | null = null;
    await server.restart(async () => {
      result = await erase(["--user", ann.id]);
    });
    expect(result).toMatchObject({ code: 0, stdout: expect.stringContaining(`erased user ${ann.id}`) });
    await server.restart(async () => {
      for (const word of [name, "Renamedwright", "Zanzibarite", ann.email])
        expect(holding(server.dataDir, word)).toEqual([]);
    });
  });

  it("by id; an unknown account exits 1; no argument, or two, is refused with the usage", async () => {
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
    for (const args of [[], ["--page", ann.id, "--folder", ann.id], ["--page", "not-an-id"]]) {
      const refused = await erase(args);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("--page ID | --folder ID");
    }
  });

  it("--page and --folder erase a live item's content (a folder's with everything below it) and one in the trash; another's page stays", async () => {
    const words = ["Bramblequaff", "Cindermoth", "Dovetailia", "Ellipsoidal"];
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const livePage = await createPage(ann, { title: "Bramblequaff memo", markdown: "Cindermoth" });
    const folderId = await createFolder(ann, { name: "Dovetailia" });
    const inside = await createPage(ann, { title: "Inside", markdown: "Ellipsoidal", parentId: folderId });
    const trashed = await createPage(ann, { title: "Trashed", markdown: "Ellipsoidal too" });
    expect((await ann.delete(`/pages/${trashed}`)).status).toBe(204);
    const bobsPage = await createPage(bob, { title: "Bob's page", markdown: "Bob's words" });
    const results: Array<Awaited<ReturnType<typeof erase>>> = [];
    await server.restart(async () => {
      results.push(
        await erase(["--page", livePage]),
        await erase(["--folder", folderId]),
        await erase(["--page", trashed]),
        await erase(["--page", randomUUID()]),
      );
    });
    expect(results.map((result) => result.code)).toEqual([0, 0, 0, 1]);
    expect(results[0]?.stdout).toContain(`erased page ${livePage}`);
    expect(results[3]?.stderr).toContain("no such page");
    for (const path of [`/pages/${livePage}`, `/folders/${folderId}`, `/pages/${inside}`, `/pages/${trashed}`]) {
      const deadline = Date.now() + 20_000;
      while ((await ann.get(path)).status !== 404) {
        if (Date.now() > deadline) throw new Error(`${path} is still there`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    expect((await ann.get("/trash")).body.data).toEqual([]);
    expect((await bob.get(`/pages/${bobsPage}/content`)).text).toContain("Bob's words");
    await server.restart(async () => {
      for (const word of words) expect(holding(server.dataDir, word)).toEqual([]);
    });
  });
});
