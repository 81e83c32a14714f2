import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, TestServer } from "../support/server.ts";
import { authorize, authorizedApp, newClient, pkcePair } from "../support/oauth-flow.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

describe("the authorization server", () => {
  it("is named by the protected resource's metadata and describes itself (RFC 9728, RFC 8414)", async () => {
    const resource = (await (await fetch(`${server.url}/.well-known/oauth-protected-resource`)).json()) as Record<string, unknown>;
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
    const outcome = await authorize(server.url, bob, { response_type: "code", client_id: client.clientId, redirect_uri: client.redirectUri, scope: "pages:read", code_challenge: challenge, code_challenge_method: "S256", state: "xyz" });
    const url = new URL(outcome.url);
    expect(url.origin + url.pathname).toBe(client.redirectUri);
    expect(url.searchParams.get("iss")).toBe(server.url);
    expect(url.searchParams.get("state")).toBe("xyz");
  });
});
