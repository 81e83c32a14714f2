// Client ID Metadata Documents fetched over TLS: an app whose client id is the https address of its document is
// authorized end to end, with the server trusting the test's own certificate authority only (verification stays
// on: a document behind a certificate it does not trust is refused). Loopback is allowed here by the explicit
// OAUTH_CLIENT_METADATA_ALLOW_PRIVATE_NETWORKS; without it such a client id is refused (outsiders.test.ts).
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorize, pkcePair, tokenRequest } from "../support/oauth-flow.ts";
import { Client, TestServer } from "../support/server.ts";
import { loopbackCertificate, opensslUnavailable, type LoopbackCertificate } from "../support/tls-certificate.ts";
import { connectAgent } from "../mcp/mcp-client.ts";

const REDIRECT_URI = "http://127.0.0.1:8976/callback";
const unavailable = opensslUnavailable();
if (unavailable) console.warn(`client metadata TLS tests skipped: ${unavailable}`);

/** An https server on loopback answering its own client metadata document at /client.json. */
async function documentServer(certificate: LoopbackCertificate): Promise<{ server: Server; clientId: string }> {
  let clientId = "";
  const server = createServer({ cert: certificate.cert, key: certificate.key }, (request, response) => {
    if (request.url !== "/client.json") return response.writeHead(404).end();
    response.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        client_id: clientId,
        client_name: "Metadata Agent",
        client_uri: "https://agent.example",
        redirect_uris: [REDIRECT_URI],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  clientId = `https://127.0.0.1:${(server.address() as AddressInfo).port}/client.json`;
  return { server, clientId };
}

const closed = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

let trusted: { server: Server; clientId: string };
let untrusted: { server: Server; clientId: string };
let server: TestServer;
beforeAll(async () => {
  if (unavailable) return;
  const authority = await loopbackCertificate();
  trusted = await documentServer(authority);
  untrusted = await documentServer(await loopbackCertificate());
  server = await TestServer.start({
    settings: { OAUTH_CLIENT_METADATA_ALLOW_PRIVATE_NETWORKS: "true" },
    hooks: { clientMetadataCa: authority.cert },
  });
});
afterAll(async () => {
  if (unavailable) return;
  await server.stop();
  await Promise.all([closed(trusted.server), closed(untrusted.server)]);
});

const codeParams = (clientId: string, challenge: string) => ({
  response_type: "code",
  client_id: clientId,
  redirect_uri: REDIRECT_URI,
  scope: "pages:read pages:write",
  code_challenge: challenge,
  code_challenge_method: "S256",
  state: "st",
  resource: `${server.url}/mcp`,
});

describe.skipIf(unavailable !== null)("client metadata documents over TLS", () => {
  it("an app identified by its document's https address is authorized, and its tokens work on the API and /mcp", async () => {
    const ann = await server.registered("ann");
    const { verifier, challenge } = pkcePair();
    const outcome = await authorize(server.url, ann, codeParams(trusted.clientId, challenge));
    const redirected = new URL(outcome.url);
    expect(redirected.origin + redirected.pathname).toBe(REDIRECT_URI);
    const code = redirected.searchParams.get("code");
    expect(code).toBeTruthy();

    const tokens = await tokenRequest(server.url, {
      grant_type: "authorization_code",
      code: code ?? "",
      redirect_uri: REDIRECT_URI,
      client_id: trusted.clientId,
      code_verifier: verifier,
      resource: `${server.url}/mcp`,
    });
    expect(tokens.status).toBe(200);
    const accessToken = String(tokens.body.access_token);
    const app = new Client(server.url, { bearer: accessToken });
    const created = await app.post("/pages", { title: "Written by the app" });
    expect(created.status).toBe(201);
    const agent = await connectAgent(server.url, accessToken);
    expect((await agent.call("read_page", { pageId: created.body.id })).markdown).toBe("");
    await agent.close();

    const apps = (await ann.get("/apps")).body.data as Array<{ name: string; scopes: string[] }>;
    expect(apps).toEqual([expect.objectContaining({ name: "Metadata Agent" })]);
  });

  it("a document behind a certificate the server does not trust is refused, and nobody is sent anywhere", async () => {
    const bob = await server.registered("bob");
    const { challenge } = pkcePair();
    const outcome = await authorize(server.url, bob, codeParams(untrusted.clientId, challenge));
    expect(outcome.url.startsWith(server.url)).toBe(true);
    expect(outcome.response.status).toBe(400);
    expect((await bob.get("/apps")).body.data).toEqual([]);
  });
});
