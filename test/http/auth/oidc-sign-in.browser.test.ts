// People sign in through a real OpenID provider (node-oidc-provider, started here) in headless Chromium: the
// authorization-code flow with PKCE ends in the session cookie the API reads, the person is registered on first
// sight with their invitations accepted, and logout ends it. Outsiders are refused: a replayed answer, an ID token
// of another sign-in (nonce) or of another client (audience), a provider's refusal, a returnTo off the site, a
// logout sent by another site. Without Debian's chromium the test skips, saying why.
import type { Browser, BrowserContext } from "playwright-core";
import type { JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userIdForSubject } from "../../../shared/auth/derived-user-id.ts";
import { chromiumUnavailable, launchChromium } from "../../support/chromium.ts";
import { TestOpenIdProvider } from "../../support/oidc-provider.ts";
import { TestServer } from "../../support/server.ts";
import { gatewayUnavailable, startGateway, type Gateway } from "../../support/gateway.ts";
import { createPage, share } from "../../support/workspace-builders.ts";

const unavailable = chromiumUnavailable();
if (unavailable) console.warn(`OpenID Connect sign-in browser test skipped: ${unavailable}`);

let counter = 0;
function nextPerson(provider: TestOpenIdProvider) {
  counter += 1;
  const sub = `person-${counter}-${crypto.randomUUID().slice(0, 8)}`;
  provider.person = { sub, email: `${sub}@example.com`, name: `Person ${counter}` };
  return provider.person;
}

describe.skipIf(unavailable !== null)("signing in through an OpenID provider", () => {
  let provider: TestOpenIdProvider;
  let server: TestServer;
  let browser: Browser;
  /** The split deployment's nginx gateway in front of the server (as command API and query node), where nginx is installed. */
  let gateway: Gateway | null = null;

  beforeAll(async () => {
    provider = await TestOpenIdProvider.listen();
    server = await TestServer.start({
      settings: {
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: provider.clientId,
        OIDC_CLIENT_SECRET: provider.clientSecret,
      },
    });
    gateway =
      gatewayUnavailable() === null ? await startGateway({ commandApi: server.url, queryApis: [server.url] }) : null;
    provider.serve([`${server.url}/auth/callback`, ...(gateway ? [`${gateway.url}/auth/callback`] : [])]);
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    await server?.stop();
    await provider?.stop();
  });

  async function inBrowser<T>(use: (context: BrowserContext) => Promise<T>): Promise<T> {
    const context = await browser.newContext();
    try {
      return await use(context);
    } finally {
      await context.close();
    }
  }

  it("signs a person in, registers them with their invitations accepted, gives a session that works on GET /api/v1/me, and logs them out", async () => {
    const person = nextPerson(provider);
    const ann = await server.registered("ann");
    const pageId = await createPage(ann, { title: "Shared before sign-in" });
    expect((await share(ann, "page", pageId, person.email, "view")).status).toBe(202);

    await inBrowser(async (context) => {
      const page = await context.newPage();
      const landed = await page.goto(`${server.url}/auth/login?returnTo=${encodeURIComponent("/api/v1/me")}`);
      expect(landed?.status()).toBe(200);
      expect(new URL(page.url()).pathname).toBe("/api/v1/me");
      const me: unknown = await landed?.json();
      expect(me).toMatchObject({
        id: userIdForSubject(provider.issuer, person.sub),
        email: person.email,
        name: person.name,
        authentication: "session",
      });
      const cookies = await context.cookies(server.url);
      expect(cookies.find((cookie) => cookie.name === "app-auth.session_token")).toMatchObject({
        httpOnly: true,
        sameSite: "Lax",
        path: "/",
      });
      expect(
        cookies.some((cookie) => cookie.name === "app-auth.sign_in"),
        "the sign-in's own cookie is spent",
      ).toBe(false);

      const shared = await page.goto(`${server.url}/api/v1/pages/${pageId}`);
      expect(shared?.status(), "the invitation was accepted at registration").toBe(200);

      const loggedOut = await page.evaluate(async () => (await fetch("/auth/logout", { method: "POST" })).status);
      expect(loggedOut).toBe(204);
      expect((await page.goto(`${server.url}/api/v1/me`))?.status()).toBe(401);
    });
  }, 60_000);

  it.skipIf(gatewayUnavailable() !== null)(
    "signs a person in and out through the split deployment's gateway, which sends /auth/ to the command API",
    async () => {
      const person = nextPerson(provider);
      const base = gateway?.url ?? "";
      await inBrowser(async (context) => {
        const page = await context.newPage();
        const landed = await page.goto(`${base}/auth/login?returnTo=/api/v1/me`);
        expect(landed?.status()).toBe(200);
        expect(page.url()).toBe(`${base}/api/v1/me`);
        expect(await landed?.json()).toMatchObject({ email: person.email });
        expect(await page.evaluate(async () => (await fetch("/auth/logout", { method: "POST" })).status)).toBe(204);
        expect((await page.goto(`${base}/api/v1/me`))?.status()).toBe(401);
      });
    },
    60_000,
  );

  it("refuses the provider's answer a second time, in the same browser or replayed into another sign-in", async () => {
    nextPerson(provider);
    await inBrowser(async (context) => {
      const page = await context.newPage();
      let answer = "";
      page.on("request", (request) => {
        if (request.url().startsWith(`${server.url}/auth/callback`)) answer = request.url();
      });
      expect((await page.goto(`${server.url}/auth/login?returnTo=/api/v1/me`))?.status()).toBe(200);
      expect(answer).toContain("code=");

      const again = await page.goto(answer);
      expect(again?.status()).toBe(401);
      expect(await again?.json()).toMatchObject({
        error: { code: "unauthenticated", message: expect.stringContaining("no sign-in is under way") },
      });

      // Another sign-in is under way in this browser (started, not finished); the old answer is replayed into it.
      const started = await fetch(`${server.url}/auth/login`, { redirect: "manual" });
      const [name = "", value = ""] = (started.headers.get("set-cookie") ?? "").split(";")[0]?.split("=") ?? [];
      await context.addCookies([{ name, value, url: `${server.url}/auth/callback` }]);
      const replayed = await page.goto(answer);
      expect(replayed?.status()).toBe(401);
      expect(await replayed?.json()).toMatchObject({
        error: { code: "unauthenticated", message: expect.stringContaining("state does not match") },
      });
    });
  }, 60_000);

  it.each([
    {
      what: "that belongs to another sign-in (its nonce is not this browser's)",
      tamper: (claims: JWTPayload): JWTPayload => ({ ...claims, nonce: "the-nonce-of-some-other-sign-in" }),
      message: "nonce mismatch",
    },
    {
      what: "issued to another client (its audience is not ours)",
      tamper: (claims: JWTPayload): JWTPayload => ({ ...claims, aud: "another-client", azp: "another-client" }),
      message: "another client",
    },
  ])(
    "refuses an ID token $what, and no session is set",
    async ({ tamper, message }) => {
      nextPerson(provider);
      provider.tamperIdToken = tamper;
      try {
        await inBrowser(async (context) => {
          const page = await context.newPage();
          const answered = await page.goto(`${server.url}/auth/login?returnTo=/api/v1/me`);
          expect(answered?.status()).toBe(401);
          expect(await answered?.json()).toMatchObject({
            error: { code: "unauthenticated", message: expect.stringContaining(message) },
          });
          expect((await context.cookies(server.url)).some((cookie) => cookie.name === "app-auth.session_token")).toBe(
            false,
          );
        });
      } finally {
        provider.tamperIdToken = null;
      }
    },
    60_000,
  );

  it("answers a provider's refusal by its error code, without repeating the provider's description", async () => {
    const started = await fetch(`${server.url}/auth/login`, { redirect: "manual" });
    expect(started.status).toBe(302);
    const state = new URL(started.headers.get("location") ?? "").searchParams.get("state") ?? "";
    const flowCookie = (started.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const query = new URLSearchParams({
      error: "access_denied",
      error_description: "<script>alert(1)</script> internal detail",
      state,
      iss: provider.issuer,
    });
    const refused = await fetch(`${server.url}/auth/callback?${query}`, {
      headers: { cookie: flowCookie },
      redirect: "manual",
    });
    expect(refused.status).toBe(401);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error).toEqual({
      code: "unauthenticated",
      message: "the provider refused the sign-in (access_denied)",
    });
  });

  it("refuses a returnTo that points off the site, and keeps one that stays on it", async () => {
    for (const offSite of [
      "https://evil.example/",
      "//evil.example/x",
      "/\\evil.example",
      "javascript:alert(1)",
      "evil.example",
      "/%0d%0aSet-Cookie:x=y".replace("%0d%0a", "\r\n"),
    ]) {
      const answered = await fetch(`${server.url}/auth/login?returnTo=${encodeURIComponent(offSite)}`, {
        redirect: "manual",
      });
      expect(answered.status, offSite).toBe(400);
      expect(((await answered.json()) as { error: { code: string } }).error.code).toBe("validation_failed");
    }
    const onSite = await fetch(
      `${server.url}/auth/login?returnTo=${encodeURIComponent("/oauth/consent?client=a&scope=pages:read")}`,
      { redirect: "manual" },
    );
    expect(onSite.status).toBe(302);
  });

  it("refuses a logout another site sends, and accepts one from a client that is no browser", async () => {
    const forged = await fetch(`${server.url}/auth/logout`, {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site", origin: "https://evil.example" },
    });
    expect(forged.status).toBe(403);
    expect(forged.headers.get("set-cookie")).toBeNull();
    const byOrigin = await fetch(`${server.url}/auth/logout`, {
      method: "POST",
      headers: { origin: "https://evil.example" },
    });
    expect(byOrigin.status).toBe(403);
    const script = await fetch(`${server.url}/auth/logout`, { method: "POST" });
    expect(script.status).toBe(204);
    expect(script.headers.get("set-cookie")).toMatch(
      /^app-auth\.session_token=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax/,
    );
  });
});
