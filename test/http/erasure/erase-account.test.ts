// DELETE /me erases an account: afterwards no file under DATA_DIR holds the person's email or name, nor the
// words of their own pages, folders and the comments on them (WAL files, key store and mail outbox included), before and after the read models are rebuilt from the log, and the API
// answers as for someone it never saw; another person's data stays as it was. The webhook delivery log keeps
// nothing of their webhooks once the notifier has followed the erasure.
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintSession } from "../../../shared/auth/session-verifier.ts";
import { runToExit } from "../../support/processes.ts";
import { Client, productionStack, TEST_SESSION_SECRET, TestServer, type TestUser } from "../../support/server.ts";
import { anchor, listThreads, openThread } from "../../support/threads.ts";
import { fileHolds, filesHolding, filesUnder } from "../../support/raw-scan.ts";
import { receiversForFile } from "../../support/webhook-receiver.ts";
import { addMember, createFolder, createPage, share, unknownAddress } from "../../support/workspace-builders.ts";
import { until } from "../../support/poll.ts";

const receiver = receiversForFile();
let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start({
    settings: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true", WEBHOOK_FIRST_RETRY_MS: "20" },
  });
});
afterAll(async () => {
  await server.stop();
});

describe("DELETE /me", () => {
  it("answers 400 unless the body repeats the account's email, and 403 to an API token", async () => {
    const ann = await server.registered("ann");
    expect((await ann.call("DELETE", "/me", { json: { confirm: "someone-else@example.com" } })).status).toBe(400);
    expect((await ann.call("DELETE", "/me", { json: {} })).status).toBe(400);
    const token = await server.tokenClient(ann, ["pages:write"]);
    expect((await token.call("DELETE", "/me", { json: { confirm: ann.email } })).status).toBe(403);
    expect((await server.anonymous().call("DELETE", "/me", { json: { confirm: ann.email } })).status).toBe(401);
    expect((await ann.get("/me")).status).toBe(200);
  });

  it("leaves the email and name nowhere under DATA_DIR, before or after a replay, and the API as if they never came", async () => {
    const email = "Zelda.Quarantine-7f3a@Example.com";
    const name = "Zeldaqx Vormundine";
    const bob = await server.registered("bob", { name: "Bob Keeper" });
    const bobsEndpoint = await receiver();
    const bobsHook = await bob.post("/webhooks", { url: bobsEndpoint.url, events: ["*"] });
    expect(bobsHook.status, bobsHook.text).toBe(201);
    // Bob invites her address before she has an account; her registration accepts it.
    const sharedFolder = await createFolder(bob, { name: "Shared before" });
    expect((await share(bob, "folder", sharedFolder, email, "view")).status).toBe(202);
    await until(
      async () => filesHolding(join(server.dataDir, "outbox"), [email]).length > 0,
      "the invitation mail to her address",
    );
    const zelda = await server.registered("zelda", {
      email,
      name,
      picture: "https://pictures.example.com/zeldaqx.png",
    });
    expect((await zelda.get(`/folders/${sharedFolder}`)).status).toBe(200);

    // Zelda's own workspace, with a comment of Bob's on her page.
    // Her own content carries words found nowhere else: her folder's name, her page's title and markdown, the
    // quote a thread anchors to, a comment of Bob's on it, and an answer her Idempotency-Key recorded.
    const herWords = ["Zorbulanth", "Quillimorph", "Grindlewhisk", "Vorpalmoss", "Snickerbrack"];
    const folderId = await createFolder(zelda, { name: "Zorbulanth plans" });
    const herPage = await createPage(zelda, {
      title: "Her Quillimorph notes",
      markdown: "text before the quoted words text after, Grindlewhisk",
      parentId: folderId,
    });
    expect((await share(zelda, "page", herPage, bob.email, "comment")).status).toBe(200);
    await openThread(bob, herPage, "Bob's Vorpalmoss remark on her notes", anchor);
    const keyedPage = await zelda.call("POST", "/pages", {
      json: { title: "Snickerbrack drafts", markdown: "" },
      headers: { "idempotency-key": "zelda-drafts" },
    });
    expect(keyedPage.status, keyedPage.text).toBe(201);
    // Bob's workspace, where Zelda is a member and comments; an invitation Bob sent her address before.
    const bobsPage = await createPage(bob, {
      title: "Bob's plan",
      markdown: "text before the quoted words text after",
    });
    expect((await addMember(bob, zelda.email, "commenter")).status).toBeLessThan(300);
    const herComment = await openThread(zelda, bobsPage, "A comment by her on Bob's plan", anchor);
    const invitedFolder = await createFolder(bob);
    const laterAddress = unknownAddress("later");
    expect((await share(bob, "folder", invitedFolder, laterAddress, "view")).status).toBe(202);
    // Zelda invites an address without an account (its mail names her) and keeps a token and an Idempotency-Key answer.
    expect((await share(zelda, "page", herPage, unknownAddress("friend"), "view")).status).toBe(202);
    const token = await server.tokenClient(zelda, ["pages:read"]);
    // What she typed into records of her own: a token's name, a webhook's URL and description.
    const herRecords = ["Wobblecrantz", "Snorkelvane", "Fennimorph"];
    const namedToken = await zelda.post("/tokens", { name: "Wobblecrantz laptop", scopes: ["pages:read"] });
    expect(namedToken.status, namedToken.text).toBe(201);
    const hersEndpoint = await receiver();
    const herHook = await zelda.post("/webhooks", {
      url: `${hersEndpoint.url}/Snorkelvane`,
      events: ["*"],
      description: "Fennimorph alerts",
    });
    expect(herHook.status, herHook.text).toBe(201);
    const keyed = await zelda.call("POST", "/shares/workspace/members", {
      json: { email: bob.email, role: "viewer" },
      headers: { "idempotency-key": "zelda-adds-bob" },
    });
    expect(keyed.status).toBeLessThan(300);
    await until(
      async () => filesHolding(join(server.dataDir, "outbox"), [name]).length > 0,
      "the invitation mail naming her",
    );
    expect(filesHolding(server.dataDir, [email, name]).length).toBeGreaterThan(0);
    expect(filesHolding(server.dataDir, herWords).length).toBeGreaterThan(0);
    expect(filesHolding(server.dataDir, herRecords).length).toBeGreaterThan(0);

    const erased = await zelda.call("DELETE", "/me", { json: { confirm: email.toLowerCase() } });
    expect(erased.status, erased.text).toBe(204);

    // The log itself: what her events held reads as erased, through the server's own key store.
    const { events } = await server.internals.eventStore.read(`user-${zelda.id}`);
    expect(events[0]?.data).toMatchObject({ userId: zelda.id, email: "", name: "Erased user", image: null });
    const logged = JSON.stringify([
      (await server.internals.eventStore.read(`token-${String(namedToken.body.id)}`)).events,
      (await server.internals.eventStore.read(`webhook-${String(herHook.body.id)}`)).events,
    ]);
    for (const word of herRecords) expect(logged.toLowerCase()).not.toContain(word.toLowerCase());

    // The API: her session and token no longer work, her workspace is gone, her comment elsewhere is an erased user's.
    expect((await zelda.get("/me")).status).toBe(401);
    expect((await token.get("/me")).status).toBe(401);
    expect((await bob.get(`/pages/${herPage}`)).status).toBe(404);
    const threads = await listThreads(bob, bobsPage);
    const shown = threads.data.find((thread) => thread.id === herComment.id);
    expect(shown?.comments[0]).toMatchObject({
      authorId: zelda.id,
      authorName: "Erased user",
      authorImage: null,
      body: "A comment by her on Bob's plan",
    });
    const bobsShares = await bob.get("/shares/workspace");
    expect(JSON.stringify(bobsShares.body)).not.toContain(zelda.id);
    const folderShares = await bob.get(`/shares/entity/folder/${sharedFolder}`);
    expect(folderShares.text).not.toContain(zelda.id);
    expect(folderShares.text.toLowerCase()).not.toContain(email.toLowerCase());
    expect((await bob.get(`/pages/${bobsPage}/content`)).text).toContain("quoted words");

    // A replay of Bob's webhook from the start of the log carries nothing of hers.
    const delivered = bobsEndpoint.received.length;
    const replay = await bob.post(`/webhooks/${String(bobsHook.body.id)}/replay`, { after: "0" });
    expect(replay.status, replay.text).toBe(202);
    await until(
      async () =>
        bobsEndpoint.received
          .slice(delivered)
          .map((delivery) => delivery.body)
          .join("\n"),
      (bodies) => bodies.includes(bobsPage),
    );
    const replayed = bobsEndpoint.received
      .slice(delivered)
      .map((delivery) => delivery.body.toLowerCase())
      .join("\n");
    for (const word of [email, name, ...herWords, ...herRecords]) expect(replayed).not.toContain(word.toLowerCase());

    // Raw bytes of every file, with the server stopped (WAL files checkpointed), then after a rebuild from the log.
    const erasedWords = [email, name, ...herWords, ...herRecords];
    await server.restart(async () => {
      expect(filesHolding(server.dataDir, erasedWords)).toEqual([]);
    });
    await server.rebuildReadModels();
    await server.restart(async () => {
      expect(filesHolding(server.dataDir, erasedWords)).toEqual([]);
    });

    // As for an address never seen: sharing with it invites; Bob's own data is intact.
    const again = await share(bob, "page", bobsPage, email, "view");
    expect(again.status, again.text).toBe(202);
    expect((await bob.get("/me")).body).toMatchObject({ email: bob.email, name: "Bob Keeper" });
    expect((await bob.get(`/pages/${bobsPage}`)).body).toMatchObject({ title: "Bob's plan" });
  });

  it("leaves the email, name and page words in no file under DATA_DIR when the erasure answers, WAL files included", async () => {
    const email = "Erin.Walfrost-5c2e@Example.com";
    const name = "Erinqua Walbright";
    const herWords = ["Plumbrigant", "Vexillomire", "Tarnwhistle"];
    const dave = await server.registered("dave");
    const erin = await server.registered("erin", { email, name });
    const folderId = await createFolder(erin, { name: "Plumbrigant archive" });
    const page = await createPage(erin, {
      title: "Vexillomire notes",
      markdown: "# Tarnwhistle\n\ntext before the quoted words text after",
      parentId: folderId,
    });
    expect((await share(erin, "page", page, dave.email, "comment")).status).toBe(200);
    await openThread(dave, page, "Dave's remark", anchor);
    expect(filesHolding(server.dataDir, [email, name, ...herWords]).length).toBeGreaterThan(0);

    const erased = await erin.call("DELETE", "/me", { json: { confirm: email } });
    expect(erased.status, erased.text).toBe(204);
    // Read at once, with the server running: the WAL files of the event store, read models and key store included.
    expect(filesHolding(server.dataDir, [email, name, ...herWords])).toEqual([]);
  });

  it("leaves nothing of the account's webhook deliveries in the delivery log once the notifier followed the erasure, and keeps another user's", async () => {
    // Her endpoint's host is a word found nowhere else; it never resolves, so every attempt's error names it.
    const host = "quibblefrost-erasure.invalid";
    const bob = await server.registered("bob");
    const bobsEndpoint = await receiver();
    const bobsHook = await bob.post("/webhooks", { url: bobsEndpoint.url, events: ["page.created"] });
    expect(bobsHook.status, bobsHook.text).toBe(201);
    const yara = await server.registered("yara");
    const herHook = await yara.post("/webhooks", { url: `http://${host}/hook`, events: ["page.created"] });
    expect(herHook.status, herHook.text).toBe(201);
    const herHookId = String(herHook.body.id);
    await createPage(yara, { title: "Yara's first page" });
    await createPage(yara, { title: "Yara's second page" });
    const bobsPage = await createPage(bob, { title: "Bob's page before" });
    type Delivery = { id: string; status: string; lastError: string | null };
    const deliveries = async (user: TestUser, webhookId: string): Promise<Delivery[]> =>
      (await user.get(`/webhooks/${webhookId}/deliveries`)).body.data as Delivery[];
    const hers = await until(
      () => deliveries(yara, herHookId),
      (rows) => rows.length === 2 && rows.every((row) => row.lastError?.includes(host) === true),
    );
    await until(
      async () => bobsEndpoint.received.map((delivery) => delivery.body).join("\n"),
      (bodies) => bodies.includes(bobsPage),
    );
    const bobsBefore = await deliveries(bob, String(bobsHook.body.id));
    expect(bobsBefore).toHaveLength(1);
    const deliveryLog = () => filesUnder(server.dataDir).filter((file) => basename(file).startsWith("webhooks.sqlite"));
    expect(deliveryLog().length).toBeGreaterThan(0);
    const herIds = [herHookId, ...hers.map((row) => row.id)];
    expect(deliveryLog().some((file) => fileHolds(file, [host, ...herIds]))).toBe(true);

    expect((await yara.call("DELETE", "/me", { json: { confirm: yara.email } })).status).toBe(204);
    // The notifier follows the log in order: a change of Bob's made after the erasure reaching him shows it got past it.
    const bobsPageAfter = await createPage(bob, { title: "Bob's page after" });
    await until(
      async () => bobsEndpoint.received.map((delivery) => delivery.body).join("\n"),
      (bodies) => bodies.includes(bobsPageAfter),
    );

    // The delivery log and its WAL, read as they are while the server runs.
    expect(deliveryLog().filter((file) => fileHolds(file, [host, ...herIds]))).toEqual([]);
    expect((await deliveries(bob, String(bobsHook.body.id))).map((row) => row.id)).toEqual(
      expect.arrayContaining(bobsBefore.map((row) => row.id)),
    );
    // Every file under DATA_DIR, with the server stopped.
    await server.restart(async () => {
      expect(filesHolding(server.dataDir, [host])).toEqual([]);
      expect(deliveryLog().filter((file) => fileHolds(file, herIds))).toEqual([]);
    });
    expect(await deliveries(bob, String(bobsHook.body.id))).toHaveLength(2);

    // The same identity signing in afresh gets a new account, whose new webhook is delivered to.
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // a session's issue time counts whole seconds
    const afresh = await server.signIn("yara", { id: yara.id, email: yara.email });
    expect((await afresh.get("/me")).status).toBe(200);
    const herNewEndpoint = await receiver();
    const herNewHook = await afresh.post("/webhooks", { url: herNewEndpoint.url, events: ["page.created"] });
    expect(herNewHook.status, herNewHook.text).toBe(201);
    const herNewPage = await createPage(afresh, { title: "Yara's page afresh" });
    await until(
      async () => herNewEndpoint.received.map((delivery) => delivery.body).join("\n"),
      (bodies) => bodies.includes(herNewPage),
    );
  });

  it("deletes the audit copies of the read models that mention the account, and `npm run replay` run after the server stopped brings nothing of it back", async () => {
    const replay = (args: string[]) =>
      runToExit(
        "services/projector/replay.cli.ts",
        {
          DATA_DIR: server.dataDir,
          AUTH_SESSION_SECRET: TEST_SESSION_SECRET,
          LOG_LEVEL: "silent",
          ...productionStack(server.dataDir),
        },
        args,
      );
    const copyOf = (result: { stdout: string }): string =>
      /written to (\S+)/.exec(result.stdout)?.[1] ?? "no copy written";
    const bob = await server.registered("bob");
    const bobsPage = await createPage(bob, { title: "Bob's audited page" });
    const before = await replay(["--until", new Date().toISOString()]);
    expect(before.code, before.stderr).toBe(0);
    const name = "Xanthippe Auditwright";
    const word = "Quodlibetarian";
    const xan = await server.registered("xan", { name });
    await createPage(xan, { title: `${word} notes` });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const withHer = await replay(["--until", new Date().toISOString()]);
    expect(withHer.code, withHer.stderr).toBe(0);
    expect(filesHolding(join(server.dataDir, "audit"), [name, word])).toEqual([copyOf(withHer)]);

    expect((await xan.call("DELETE", "/me", { json: { confirm: xan.email } })).status).toBe(204);
    expect(existsSync(copyOf(withHer))).toBe(false);
    expect(existsSync(copyOf(before))).toBe(true);
    // Stopped, then rebuilt by the operator's own command, as a child process.
    await server.restart(async () => {
      const rebuilt = await replay([]);
      expect(rebuilt.code, rebuilt.stderr).toBe(0);
      expect(filesHolding(server.dataDir, [name, word, xan.email])).toEqual([]);
    });
    expect((await xan.get("/me")).status).toBe(401);
    expect((await bob.get(`/pages/${bobsPage}`)).body).toMatchObject({ title: "Bob's audited page" });
  });

  it("lets the same identity sign in afresh with a new session, to an empty account under a new id, but not with a session from before", async () => {
    const ann = await server.registered("ann", { name: "Annika Before" });
    await createPage(ann, { title: "Annika's page" });
    expect((await ann.call("DELETE", "/me", { json: { confirm: ann.email } })).status).toBe(204);
    expect((await ann.get("/me")).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // a session's issue time counts whole seconds
    const cookie = await mintSession(TEST_SESSION_SECRET, { sub: ann.id, email: ann.email, name: "Annika After" });
    const fresh = new Client(server.url, { cookie });
    const me = await fresh.get("/me");
    expect(me.status, me.text).toBe(200);
    expect(me.body).toMatchObject({ email: ann.email, name: "Annika After" });
    expect(me.body.id).not.toBe(ann.id);
    expect((await fresh.get("/pages")).body.data).toEqual([]);
  });
});

export type { TestUser };
