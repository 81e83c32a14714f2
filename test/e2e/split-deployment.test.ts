// The split deployment end to end on this machine, from the compiled build: nginx in front of the command
// API and two query nodes, a projector and two notifiers as separate processes over shared SQLite files,
// talking over a real nats-server (JetStream), and a real SMTP server. The main scenario walks through the gateway only, with read-your-writes on every step;
// then a query node dies, and the notifiers are killed between sending a mail and hearing it was taken.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintSession } from "../../shared/auth/session-verifier.ts";
import { gatewayUnavailable, type Gateway } from "../support/gateway.ts";
import { makeImage, pngOfExactly, upload } from "../support/images.ts";
import { natsUnavailable, startNatsServer, type NatsServer } from "../support/nats-server.ts";
import { Client, TEST_SESSION_SECRET } from "../support/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp-server.ts";
import {
  buildServices,
  startSplitBehindGateway,
  type GatewayedSplit,
  type SplitServices,
} from "../support/split-services.ts";
import { until } from "../support/poll.ts";

const unavailable = gatewayUnavailable() ?? natsUnavailable();
if (unavailable) console.warn(`split-deployment tests skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)("the split deployment behind nginx", () => {
  let nats: NatsServer;
  let smtp: TestSmtpServer;
  let deployment: GatewayedSplit;
  let split: SplitServices;
  let gateway: Gateway;
  /** The address whose mail makes the test kill every notifier before the SMTP server answers it. */
  let crashOn: string | null = null;

  beforeAll(async () => {
    const compiled = buildServices("e2e");
    nats = await startNatsServer();
    smtp = await startSmtpServer({
      beforeAnswer: async (message) => {
        if (crashOn === null || !message.rcptTo.includes(crashOn)) return;
        for (const notifier of split.notifiers) notifier.child.kill("SIGKILL");
      },
    });
    deployment = await startSplitBehindGateway({
      compiled,
      queryNodes: 2,
      notifiers: 2,
      env: {
        NATS_URL: nats.url,
        SMTP_URL: smtp.url,
        PUBLIC_BASE_URL: "https://workspace.example.com",
        SHARE_LINK_VIEW_FLUSH_MS: "100",
      },
    });
    ({ split, gateway } = deployment);
  }, 180_000);
  afterAll(async () => {
    await deployment?.stop();
    await smtp?.close();
    await nats?.stop();
  });

  const mailsTo = (address: string) => smtp.delivered().filter((mail) => mail.to === address);

  it("walks the main scenario through the gateway: session, token, folder, page, resolve, thread, invitation, first sign-in", async () => {
    const ownerCookie = await mintSession(TEST_SESSION_SECRET, {
      sub: crypto.randomUUID(),
      email: "owner@example.com",
      name: "Olive",
    });
    const owner = new Client(gateway.url, { cookie: ownerCookie });
    expect((await owner.get("/me")).body).toMatchObject({ email: "owner@example.com", authentication: "session" });

    const created = await owner.post("/tokens", { name: "script", scopes: ["pages:read", "pages:write"] });
    expect(created.status).toBe(201);
    const bot = new Client(gateway.url, { bearer: String(created.body.token) });

    const folder = await bot.post("/folders", { name: "Plans" });
    expect(folder.status).toBe(201);
    const page = await bot.post("/pages", {
      title: "Launch",
      parentId: folder.body.id,
      markdown: "# Launch\n\nWe ship.",
    });
    expect(page.status).toBe(201);
    const afterPage = { "x-consistency-token": page.headers.get("x-consistency-token") ?? "" };
    expect((await bot.get(`/pages/${String(page.body.id)}`, afterPage)).body.title).toBe("Launch");
    const resolved = await bot.get("/pages/resolve?title=launch", afterPage);
    expect(resolved.body.data).toEqual([expect.objectContaining({ id: page.body.id, folderPath: "Plans" })]);
    expect((await bot.get(`/pages/${String(page.body.id)}/content`, afterPage)).text).toContain("We ship.");

    const thread = await owner.post(`/pages/${String(page.body.id)}/comments`, {
      body: "Which date?",
      anchor: { quote: "We ship." },
    });
    expect(thread.status).toBe(201);
    const threads = await owner.get(`/pages/${String(page.body.id)}/comments`, {
      "x-consistency-token": thread.headers.get("x-consistency-token") ?? "",
    });
    expect(threads.body.data).toEqual([expect.objectContaining({ id: (thread.body.thread as { id: string }).id })]);

    const shared = await owner.post(`/shares/entity/page/${String(page.body.id)}/grants`, {
      email: "invitee@example.com",
      permission: "comment",
    });
    expect(shared.status).toBe(202);
    await until(
      async () => mailsTo("invitee@example.com").length,
      (count) => count === 1,
      "the invitation mail",
    );
    const [mail] = mailsTo("invitee@example.com");
    expect(mail?.text).toContain("Olive invited you to a page with comment access");
    expect(mail?.html).toContain("https://workspace.example.com");
    const status = await until(
      async () =>
        (
          (await owner.get(`/shares/entity/page/${String(page.body.id)}`)).body.pendingInvitations as Array<{
            deliveryStatus: string;
          }>
        )[0]?.deliveryStatus,
      (value) => value === "sent",
      "deliveryStatus sent",
    );
    expect(status).toBe("sent");
    expect(mailsTo("invitee@example.com")).toHaveLength(1);

    const inviteeCookie = await mintSession(TEST_SESSION_SECRET, {
      sub: crypto.randomUUID(),
      email: "invitee@example.com",
      name: "Ivy",
    });
    const invitee = new Client(gateway.url, { cookie: inviteeCookie });
    const firstSight = await invitee.get("/pages");
    expect(firstSight.status).toBe(200);
    expect(firstSight.body.data).toEqual([expect.objectContaining({ id: page.body.id, permission: "comment" })]);
  });

  it("uploads an image through the gateway and serves its bytes from a query node, which only reads them", async () => {
    const cookie = await mintSession(TEST_SESSION_SECRET, {
      sub: crypto.randomUUID(),
      email: "painter@example.com",
      name: "Pia",
    });
    const painter = new Client(gateway.url, { cookie });
    const page = await painter.post("/pages", { title: "Gallery" });
    expect(page.status).toBe(201);
    const bytes = await makeImage("png", 120, 80);
    const uploaded = await upload(painter, String(page.body.id), {
      file: { bytes, name: "sketch.png" },
      alt: "A sketch",
    });
    expect(uploaded.status, uploaded.text).toBe(201);
    const token = uploaded.headers.get("x-consistency-token") ?? "";
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const served = await fetch(`${gateway.url}${String(uploaded.body.url)}`, {
        headers: { cookie: `app-auth.session_token=${cookie}`, "x-consistency-token": token },
      });
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/png");
      expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    }
    const tooLarge = await upload(painter, String(page.body.id), {
      file: { bytes: await pngOfExactly(10 * 1024 * 1024 + 1), name: "big.png" },
      alt: "big",
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error?.code).toBe("payload_too_large");
  });

  it("serves a share link's public page through the gateway from the query nodes, its password form too, and counts its views", async () => {
    const cookie = await mintSession(TEST_SESSION_SECRET, {
      sub: crypto.randomUUID(),
      email: "publisher@example.com",
      name: "Pat",
    });
    const sharer = new Client(gateway.url, { cookie });
    const page = await sharer.post("/pages", { title: "Press kit", markdown: "Logos and **photos**." });
    expect(page.status).toBe(201);
    const created = await sharer.post(`/pages/${String(page.body.id)}/share-links`, { password: "press only" });
    expect(created.status, created.text).toBe(201);
    const url = String(created.body.url);
    expect(url.startsWith("https://workspace.example.com/s/sl_")).toBe(true);
    const path = new URL(url).pathname;
    const open = (headers: Record<string, string> = {}) =>
      fetch(`${gateway.url}${path}`, { headers, redirect: "manual" });
    const locked = await until(
      () => open(),
      (response) => response.status === 401,
      "the link on the query nodes",
    );
    expect(await locked.text()).toContain('name="password"');
    const form = (password: string) =>
      fetch(`${gateway.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ password }).toString(),
        redirect: "manual",
      });
    expect((await form("wrong")).status).toBe(401);
    const unlocked = await form("press only");
    expect(unlocked.status).toBe(303);
    const pass = (unlocked.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    for (let read = 0; read < 3; read += 1) {
      const shown = await open({ cookie: pass });
      expect(shown.status).toBe(200);
      expect(shown.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
      expect(await shown.text()).toContain("Logos and <strong>photos</strong>.");
    }
    const counted = await until(
      async () => (await sharer.get(`/share-links/${String(created.body.id)}`)).body.views,
      (views) => views === 3,
      "the views, reported by the query nodes",
    );
    expect(counted).toBe(3);
    expect((await fetch(`${gateway.url}/internal/v1/share-link-views`, { method: "POST" })).status).toBe(404);
    expect((await sharer.delete(`/share-links/${String(created.body.id)}`)).status).toBe(204);
    const gone = await until(
      () => open({ cookie: pass }),
      (response) => response.status === 404,
      "the revoked link",
    );
    const never = await fetch(`${gateway.url}/s/sl_${"A".repeat(43)}`);
    expect(await gone.text()).toBe(await never.text());
  });

  it("keeps serving reads through the gateway when a query node is killed", async () => {
    const cookie = await mintSession(TEST_SESSION_SECRET, {
      sub: crypto.randomUUID(),
      email: "reader@example.com",
      name: "Rita",
    });
    const reader = new Client(gateway.url, { cookie });
    const page = await reader.post("/pages", { title: "Survives" });
    const token = { "x-consistency-token": page.headers.get("x-consistency-token") ?? "" };
    const [node] = split.queryApis;
    node?.child.kill("SIGKILL");
    for (let read = 0; read < 10; read += 1)
      expect((await reader.get(`/pages/${String(page.body.id)}`, token)).status).toBe(200);
  });

  it("delivers every invitation of a burst exactly once while nats-server is stopped and started again", async () => {
    const cookie = await mintSession(TEST_SESSION_SECRET, {
      sub: crypto.randomUUID(),
      email: "burst@example.com",
      name: "Bea",
    });
    const sharer = new Client(gateway.url, { cookie });
    const page = await sharer.post("/pages", { title: "Burst" });
    const addresses = Array.from({ length: 12 }, (_, n) => `burst-${n}@example.com`);
    const invite = (address: string) =>
      sharer.post(`/shares/entity/page/${String(page.body.id)}/grants`, { email: address, permission: "view" });
    const before = await Promise.all(addresses.slice(0, 4).map(invite));
    await nats.restart();
    const after = await Promise.all(addresses.slice(4).map(invite));
    // Writes never fail: while the bus is away the projector holds its batch back, and they answer 202.
    expect([...before, ...after].every((reply) => reply.status === 202)).toBe(true);
    await until(
      async () => addresses.every((address) => mailsTo(address).length > 0),
      Boolean,
      "every invitation mail",
      60_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(addresses.map((address) => mailsTo(address).length)).toEqual(addresses.map(() => 1));
  });

  it("sends no second mail for an attempt whose notifier died between sending and hearing back", async () => {
    const cookie = await mintSession(TEST_SESSION_SECRET, {
      sub: crypto.randomUUID(),
      email: "sharer@example.com",
      name: "Sam",
    });
    const sharer = new Client(gateway.url, { cookie });
    const page = await sharer.post("/pages", { title: "Crash course" });
    crashOn = "crash@example.com";
    expect(
      (
        await sharer.post(`/shares/entity/page/${String(page.body.id)}/grants`, {
          email: "crash@example.com",
          permission: "view",
        })
      ).status,
    ).toBe(202);
    await until(
      async () => split.notifiers.every((notifier) => notifier.child.signalCode === "SIGKILL"),
      Boolean,
      "the notifiers killed",
    );
    crashOn = null;
    expect(mailsTo("crash@example.com")).toHaveLength(1);

    // Fresh notifiers replay the log: the attempt was started, so nothing is sent again; other mail flows.
    await split.start("notifier");
    await split.start("notifier");
    expect(
      (
        await sharer.post(`/shares/entity/page/${String(page.body.id)}/grants`, {
          email: "after@example.com",
          permission: "view",
        })
      ).status,
    ).toBe(202);
    await until(
      async () => mailsTo("after@example.com").length,
      (count) => count === 1,
      "the next invitation mail",
    );
    expect(mailsTo("crash@example.com")).toHaveLength(1);
  });
});
