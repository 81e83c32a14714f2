import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, TestServer } from "../support/server.ts";
import { SESSION_COOKIE } from "../../shared/auth/session-verifier.ts";
import {
  authorize,
  authorizedApp,
  authorizeUrl,
  CookieJar,
  follow,
  newClient,
  pkcePair,
} from "../support/oauth-flow.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

describe("the authorization server", () => {
  it("is named by the protected resource's metadata and describes itself (RFC 9728, RFC 8414)", async () => {
    const resource = (await (await fetch(`${server.url}/.well-known/oauth-protected-resource`)).json()) as Record<
      string,
      unknown
    >;
    expect(resource.authorization_servers).toEqual([server.url]);
    const response = await fetch(`${server.url}/.well-known/oauth-authorization-server`);
    expect(response.status).toBe(200);
    const metadata = (await response.json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      issuer: server.url,
      authorization_endpoint: `${server.url}/oauth/authorize`,
      token_endpoint: `${server.url}/oauth/token`,
      registration_endpoint: `${server.url}/oauth/register`,
      revocation_endpoint: `${server.url}/oauth/revoke`,
      code_challenge_methods_supported: ["S256"],
      response_types_supported: ["code"],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    });
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(["pages:read", "pages:comment", "pages:write"]));
  });

  it("an app the user approved gets a code with iss, then tokens that work on the API with the scopes granted", async () => {
    const ann = await server.registered("ann");
    const { tokens } = await authorizedApp(server.url, ann, ["pages:read", "pages:write"], ["pages:read"]);
    expect(tokens.scope).toBe("pages:read");
    const app = new Client(server.url, { bearer: tokens.access_token });
    expect((await app.get("/pages")).status).toBe(200);
    const write = await app.post("/pages", { title: "From the app" });
    expect(write.status).toBe(403);
    expect(write.body.error?.code).toBe("insufficient_scope");
  });

  it("the authorization response carries iss (RFC 9207)", async () => {
    const bob = await server.registered("bob");
    const client = await newClient(server.url);
    const { challenge } = pkcePair();
    const outcome = await authorize(server.url, bob, {
      response_type: "code",
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      scope: "pages:read",
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "xyz",
    });
    const url = new URL(outcome.url);
    expect(url.origin + url.pathname).toBe(client.redirectUri);
    expect(url.searchParams.get("iss")).toBe(server.url);
    expect(url.searchParams.get("state")).toBe("xyz");
  });
});

describe("the consent page", () => {
  it("sends a person who is not signed in to sign in, and back to the same page", async () => {
    const client = await newClient(server.url);
    const { challenge } = pkcePair();
    const jar = new CookieJar();
    const { response, url } = await follow(
      jar,
      server.url,
      authorizeUrl(server.url, {
        response_type: "code",
        client_id: client.clientId,
        redirect_uri: client.redirectUri,
        scope: "pages:read",
        code_challenge: challenge,
        code_challenge_method: "S256",
      }),
    );
    expect(response.status).toBe(404);
    const login = new URL(url);
    expect(login.pathname).toBe("/auth/login");
    expect(login.searchParams.get("returnTo")).toMatch(/^\/oauth\/consent\/[A-Za-z0-9_-]+$/);
  });

  it("is served without script, under a strict policy, and a denial goes back to the app as access_denied", async () => {
    const carol = await server.registered("carol");
    const client = await newClient(server.url);
    const { challenge } = pkcePair();
    const params = {
      response_type: "code",
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      scope: "pages:read pages:write",
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "d",
    };
    const jar = new CookieJar({
      [SESSION_COOKIE]: carol.credentials && "cookie" in carol.credentials ? carol.credentials.cookie : "",
    });
    const page = await follow(jar, server.url, authorizeUrl(server.url, params));
    const csp = page.response.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(
      /^default-src 'none'; style-src 'sha256-[^']+'; form-action 'self' http:\/\/127\.0\.0\.1:8976;/,
    );
    const html = await page.response.text();
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain("Test Agent");
    const denied = await authorize(server.url, carol, params, { decision: "deny" });
    const answer = new URL(denied.url);
    expect(answer.searchParams.get("error")).toBe("access_denied");
    expect(answer.searchParams.get("code")).toBeNull();
  });

  it("a forged answer without the page's token is refused", async () => {
    const dave = await server.registered("dave");
    const client = await newClient(server.url);
    const { challenge } = pkcePair();
    const jar = new CookieJar({
      [SESSION_COOKIE]: dave.credentials && "cookie" in dave.credentials ? dave.credentials.cookie : "",
    });
    const page = await follow(
      jar,
      server.url,
      authorizeUrl(server.url, {
        response_type: "code",
        client_id: client.clientId,
        redirect_uri: client.redirectUri,
        scope: "pages:read",
        code_challenge: challenge,
        code_challenge_method: "S256",
      }),
    );
    const form = new URLSearchParams({ csrf: "forged", decision: "approve", scope: "pages:read" });
    const forged = await follow(jar, server.url, page.url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    expect(forged.response.status).toBe(403);
    const crossSite = await follow(jar, server.url, page.url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" },
      body: form.toString(),
    });
    expect(crossSite.response.status).toBe(403);
  });
});
