// What the authorization server refuses: redirects anywhere but the registered URI, a flow without PKCE S256, a
// code used twice, tokens for another resource, client metadata documents on private addresses.
import { createPrivateKey } from "node:crypto";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthKeysFrom } from "../../shared/oauth/oauth-keys.ts";
import {
  authorize,
  authorizedApp,
  authorizeUrl,
  browse,
  CookieJar,
  newClient,
  pkcePair,
  registerClient,
  tokenRequest,
} from "../support/oauth-flow.ts";
import { Client, TEST_SESSION_SECRET, TestServer, type TestUser } from "../support/server.ts";

let server: TestServer;
let ann: TestUser;
beforeAll(async () => {
  server = await TestServer.start();
  ann = await server.registered("ann");
});
afterAll(async () => {
  await server.stop();
});

const codeParams = (clientId: string, redirectUri: string, challenge: string) => ({
  response_type: "code",
  client_id: clientId,
  redirect_uri: redirectUri,
  scope: "pages:read",
  code_challenge: challenge,
  code_challenge_method: "S256",
  state: "st",
});

describe("redirects", () => {
  it("a redirect URI that was not registered exactly is answered here, never redirected to", async () => {
    const client = await newClient(server.url);
    const { challenge } = pkcePair();
    for (const redirectUri of [
      "https://evil.example/callback",
      `${client.redirectUri}/more`,
      `${client.redirectUri}?next=https://evil.example`,
      "http://127.0.0.1:8977/callback",
      "http://127.0.0.1:8976/Callback",
    ]) {
      const response = await browse(
        new CookieJar(),
        authorizeUrl(server.url, codeParams(client.clientId, redirectUri, challenge)),
      );
      expect(response.status, redirectUri).toBe(400);
      expect(response.headers.get("location"), redirectUri).toBeNull();
      expect(await response.text()).toContain("redirect_uri");
    }
  });

  it("registration refuses http redirects except to loopback, and schemes a browser runs", async () => {
    for (const uri of [
      "http://evil.example/callback",
      "javascript:alert(1)",
      "data:text/html,hi",
      "https://app.example/cb#fragment",
    ]) {
      const { status, body } = await registerClient(server.url, { redirect_uris: [uri] });
      expect(status, uri).toBe(400);
      expect(String(body.error), uri).toMatch(/invalid_redirect_uri|invalid_client_metadata/);
    }
    for (const uri of ["http://127.0.0.1:3456/cb", "http://localhost/cb", "https://app.example/cb"]) {
      expect((await registerClient(server.url, { redirect_uris: [uri] })).status, uri).toBe(201);
    }
    // An installed app's own scheme (RFC 8252), as a native client.
    expect(
      (
        await registerClient(server.url, {
          redirect_uris: ["cursor://anysphere.cursor-mcp/oauth/callback"],
          application_type: "native",
        })
      ).status,
    ).toBe(201);
  });

  it("a registration asking for a client secret is refused: clients are public and use PKCE", async () => {
    const { status } = await registerClient(server.url, { token_endpoint_auth_method: "client_secret_basic" });
    expect(status).toBe(400);
  });
});

describe("PKCE", () => {
  it("an authorization request without a code challenge is refused", async () => {
    const client = await newClient(server.url);
    const {
      code_challenge: _c,
      code_challenge_method: _m,
      ...params
    } = codeParams(client.clientId, client.redirectUri, "x");
    const outcome = await authorize(server.url, ann, params);
    const answer = new URL(outcome.url);
    expect(answer.searchParams.get("code")).toBeNull();
    expect(answer.searchParams.get("error")).toBe("invalid_request");
    expect(answer.searchParams.get("iss")).toBe(server.url);
  });

  it("the plain method is refused", async () => {
    const client = await newClient(server.url);
    const { verifier } = pkcePair();
    const outcome = await authorize(server.url, ann, {
      ...codeParams(client.clientId, client.redirectUri, verifier),
      code_challenge_method: "plain",
    });
    const answer = new URL(outcome.url);
    expect(answer.searchParams.get("code")).toBeNull();
    expect(answer.searchParams.get("error")).toBe("invalid_request");
  });

  it("a code is not exchanged without its verifier, nor with another", async () => {
    const client = await newClient(server.url);
    const { challenge } = pkcePair();
    const outcome = await authorize(server.url, ann, {
      ...codeParams(client.clientId, client.redirectUri, challenge),
      resource: `${server.url}/mcp`,
    });
    const code = new URL(outcome.url).searchParams.get("code") ?? "";
    const base = {
      grant_type: "authorization_code",
      code,
      redirect_uri: client.redirectUri,
      client_id: client.clientId,
    };
    expect((await tokenRequest(server.url, base)).body.error).toBe("invalid_grant");
    expect((await tokenRequest(server.url, { ...base, code_verifier: pkcePair().verifier })).body.error).toBe(
      "invalid_grant",
    );
  });
});

describe("codes and tokens", () => {
  it("a code used twice is refused, and the tokens it gave stop working", async () => {
    const { client, code, verifier, tokens } = await authorizedApp(server.url, ann, ["pages:read"]);
    const app = new Client(server.url, { bearer: tokens.access_token });
    expect((await app.get("/pages")).status).toBe(200);
    const again = await tokenRequest(server.url, {
      grant_type: "authorization_code",
      code,
      redirect_uri: client.redirectUri,
      client_id: client.clientId,
      code_verifier: verifier,
    });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_grant");
    expect((await app.get("/pages")).status).toBe(401);
    expect(
      (
        await tokenRequest(server.url, {
          grant_type: "refresh_token",
          refresh_token: tokens.refresh_token,
          client_id: client.clientId,
        })
      ).body.error,
    ).toBe("invalid_grant");
  });

  it("a token for another resource is not issued", async () => {
    const client = await newClient(server.url);
    const { challenge } = pkcePair();
    const outcome = await authorize(server.url, ann, {
      ...codeParams(client.clientId, client.redirectUri, challenge),
      resource: "https://other.example/mcp",
    });
    expect(new URL(outcome.url).searchParams.get("error")).toBe("invalid_target");
  });

  it("an access token for another audience is refused by the API and the MCP server, even signed by this server", async () => {
    const { tokens } = await authorizedApp(server.url, ann, ["pages:read"]);
    const claims = JSON.parse(Buffer.from(tokens.access_token.split(".")[1] ?? "", "base64url").toString()) as Record<
      string,
      unknown
    >;
    const keys = oauthKeysFrom(TEST_SESSION_SECRET);
    const forged = await new SignJWT({ ...claims, aud: "https://other.example/mcp" })
      .setProtectedHeader({ alg: "EdDSA", typ: "at+jwt", kid: keys.keyId })
      .sign(createPrivateKey({ key: keys.signingJwk, format: "jwk" }));
    const api = await new Client(server.url, { bearer: forged }).get("/pages");
    expect(api.status).toBe(401);
    expect(api.body.error?.message).toMatch(/another resource/);
    const mcp = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${forged}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get("www-authenticate")).toMatch(/resource_metadata=/);
  });
});

describe("client metadata documents", () => {
  it("a client id whose document is on a private address is refused before anything is fetched", async () => {
    const { challenge } = pkcePair();
    for (const clientId of [
      "https://127.0.0.1:9443/client.json",
      "https://10.1.2.3/client.json",
      "https://[::1]/client.json",
      "https://localhost/client.json",
    ]) {
      const response = await browse(
        new CookieJar(),
        authorizeUrl(server.url, codeParams(clientId, "https://app.example/cb", challenge)),
      );
      expect(response.status, clientId).toBe(400);
      expect(response.headers.get("location"), clientId).toBeNull();
    }
  });
});
