import { SignJWT, UnsecuredJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "../../../shared/auth/session-verifier.ts";
import { Client, TEST_SESSION_SECRET, TestServer } from "../../support/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

const secret = new TextEncoder().encode(TEST_SESSION_SECRET);
const claims = { email: "someone@example.com", name: "Someone" };
const withCookie = (value: string) => new Client(server.url, { cookie: value });

describe("sessions", () => {
  it("a valid session registers the user on first sight and GET /me describes them", async () => {
    const ann = await server.signIn("ann", { picture: "https://img.example/ann.png" });
    const me = await ann.get("/me");
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: ann.id,
      name: "ann",
      email: ann.email,
      image: "https://img.example/ann.png",
      authentication: "session",
      scopes: null,
    });
  });

  it("a request without credentials is 401 with the error body", async () => {
    const reply = await server.anonymous().get("/me");
    expect(reply.status).toBe(401);
    expect(reply.body.error?.code).toBe("unauthenticated");
  });

  it("rejects alg none, a wrong signature, an expired token and garbage with 401", async () => {
    const sub = crypto.randomUUID();
    const none = new UnsecuredJWT({ ...claims }).setSubject(sub).setExpirationTime("1h").encode();
    const wrongKey = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(sub)
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("another-secret-another-secret-another"));
    const expired = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(sub)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(secret);
    const noExpiry = await new SignJWT({ ...claims }).setProtectedHeader({ alg: "HS256" }).setSubject(sub).sign(secret);
    const notUuid = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("user-1")
      .setExpirationTime("1h")
      .sign(secret);
    for (const value of [none, wrongKey, expired, noExpiry, notUuid, "not-a-jwt", ""]) {
      const reply = await withCookie(value).get("/me");
      expect(reply.status, value).toBe(401);
      expect(reply.body.error?.code).toBe("unauthenticated");
    }
  });

  it("keeps the profile in step with the session's name", async () => {
    const id = crypto.randomUUID();
    const first = await server.signIn("first", { id, email: `${id}@example.com`, name: "Old Name" });
    expect((await first.get("/me")).body.name).toBe("Old Name");
    const renamed = await server.signIn("renamed", { id, email: `${id}@example.com`, name: "New Name" });
    expect((await renamed.get("/me")).body.name).toBe("New Name");
  });

  it("refuses a second account for an email that already has one", async () => {
    const email = `shared-${crypto.randomUUID()}@example.com`;
    const owner = await server.signIn("owner", { email });
    expect((await owner.get("/me")).status).toBe(200);
    const other = await server.signIn("other", { email: email.toUpperCase() });
    const reply = await other.get("/me");
    expect(reply.status).toBe(409);
    expect(reply.body.error?.code).toBe("conflict");
  });

  it("reads the session cookie among other cookies", async () => {
    const ann = await server.signIn("ann");
    const cookie = (ann.credentials && "cookie" in ann.credentials && ann.credentials.cookie) || "";
    const reply = await server
      .anonymous()
      .call("GET", "/me", { headers: { cookie: `theme=dark; ${SESSION_COOKIE}=${cookie}; other=1` } });
    expect(reply.status).toBe(200);
  });
});

describe("API tokens", () => {
  it("creates a token whose secret is shown once and works at once on every route", async () => {
    const ann = await server.signIn("ann");
    const created = await ann.post("/tokens", {
      name: "  ci bot  ",
      scopes: ["pages:read", "pages:write"],
      expiresAt: null,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "ci bot",
      scopes: ["pages:read", "pages:write"],
      expiresAt: null,
      lastUsedAt: null,
    });
    expect(String(created.body.token)).toMatch(/^pat_[A-Za-z0-9_-]{43}$/);
    const bot = new Client(server.url, { bearer: String(created.body.token) });
    const me = await bot.get("/me");
    expect(me.body).toMatchObject({ id: ann.id, authentication: "token", scopes: ["pages:read", "pages:write"] });
    expect((await bot.post("/pages", { title: "From a token" })).status).toBe(201);
    const listed = await ann.get("/tokens");
    expect(listed.body.data).toEqual([expect.objectContaining({ id: created.body.id, name: "ci bot" })]);
    expect(JSON.stringify(listed.body)).not.toContain(String(created.body.token));
  });

  it("starts a token with pages:read when no scopes are sent", async () => {
    const ann = await server.signIn("ann");
    const created = await ann.post("/tokens", { name: "reader" });
    expect(created.status).toBe(201);
    expect(created.body.scopes).toEqual(["pages:read"]);
  });

  it("validates name, scopes and expiresAt", async () => {
    const ann = await server.signIn("ann");
    const bad = [
      {},
      { name: "" },
      { name: "   " },
      { name: "x".repeat(101) },
      { name: "ok", scopes: [] },
      { name: "ok", scopes: ["pages:admin"] },
      { name: "ok", scopes: "pages:read" },
      { name: "ok", expiresAt: "tomorrow" },
      { name: "ok", expiresAt: "2001-01-01T00:00:00Z" },
    ];
    for (const body of bad) {
      const reply = await ann.post("/tokens", body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.error?.code).toBe("validation_failed");
    }
    expect((await ann.post("/tokens", { name: "x".repeat(100) })).status).toBe(201);
  });

  it("cannot be created or listed with a token", async () => {
    const ann = await server.signIn("ann");
    const bot = await server.tokenClient(ann, ["pages:read", "pages:comment", "pages:write"]);
    expect((await bot.post("/tokens", { name: "child" })).status).toBe(403);
    expect((await bot.get("/tokens")).status).toBe(403);
  });

  it("enforces scopes with 403 insufficient_scope", async () => {
    const ann = await server.signIn("ann");
    const reader = await server.tokenClient(ann, ["pages:read"]);
    const writer = await server.tokenClient(ann, ["pages:write"]);
    const denied = await reader.post("/pages", { title: "nope" });
    expect(denied.status).toBe(403);
    expect(denied.body.error?.code).toBe("insufficient_scope");
    expect((await writer.get("/pages")).body.error?.code).toBe("insufficient_scope");
    expect((await writer.get("/me")).status).toBe(200);
  });

  it("a revoked or expired token is 401; unknown tokens are 401", async () => {
    const ann = await server.signIn("ann");
    const created = await ann.post("/tokens", { name: "short" });
    const bot = new Client(server.url, { bearer: String(created.body.token) });
    expect((await bot.get("/me")).status).toBe(200);
    expect((await ann.delete(`/tokens/${String(created.body.id)}`)).status).toBe(204);
    const revoked = await bot.get("/me");
    expect(revoked.status).toBe(401);
    expect((await ann.get("/tokens")).body.data).toEqual([]);
    expect((await new Client(server.url, { bearer: "pat_" + "a".repeat(43) }).get("/me")).status).toBe(401);
    expect((await server.anonymous().call("GET", "/me", { headers: { authorization: "Basic abc" } })).status).toBe(401);

    const soon = new Date(Date.now() + 1500).toISOString();
    const expiring = await ann.post("/tokens", { name: "soon", expiresAt: soon });
    const expiringClient = new Client(server.url, { bearer: String(expiring.body.token) });
    expect((await expiringClient.get("/me")).status).toBe(200);
    const deadline = Date.now() + 5000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = (await expiringClient.get("/me")).status;
    }
    expect(status).toBe(401);
  });

  it("records lastUsedAt after use", async () => {
    const ann = await server.signIn("ann");
    const created = await ann.post("/tokens", { name: "used" });
    const bot = new Client(server.url, { bearer: String(created.body.token) });
    await bot.get("/me");
    const deadline = Date.now() + 5000;
    let lastUsedAt: unknown = null;
    while (lastUsedAt === null && Date.now() < deadline) {
      const listed = await ann.get("/tokens");
      lastUsedAt = (listed.body.data as Array<{ lastUsedAt: string | null }>)[0]?.lastUsedAt ?? null;
    }
    expect(typeof lastUsedAt).toBe("string");
  });

  it("only the owner can revoke a token; others get 404", async () => {
    const ann = await server.signIn("ann");
    const bob = await server.signIn("bob");
    const created = await ann.post("/tokens", { name: "mine" });
    expect((await bob.delete(`/tokens/${String(created.body.id)}`)).status).toBe(404);
    expect((await ann.delete(`/tokens/not-a-uuid`)).status).toBe(400);
  });

  it("never writes the secret into the event store", async () => {
    const ann = await server.signIn("ann");
    const created = await ann.post("/tokens", { name: "secret check" });
    const events = await server.internals.eventStore.readAll(0, 100_000);
    expect(JSON.stringify(events)).not.toContain(String(created.body.token));
  });
});
