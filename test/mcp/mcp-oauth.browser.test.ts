// The official MCP SDK client's OAuth support against the server, as an agent added by URL alone: a 401 naming
// the protected-resource metadata, discovery of the authorization server, dynamic registration, the person's
// consent given in headless Chromium (signed in with a session cookie), the code exchanged with PKCE, tool calls
// with the access token, and a refresh when the token is refused. Without Debian's chromium the test skips.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "../../shared/auth/session-verifier.ts";
import { chromiumUnavailable, launchChromium } from "../support/chromium.ts";
import { TestServer, type TestUser } from "../support/server.ts";

const unavailable = chromiumUnavailable();
if (unavailable) console.warn(`MCP OAuth browser test skipped: ${unavailable}`);

/** What an agent keeps between runs: its registration, its tokens, the PKCE verifier of the flow under way. */
class AgentAuth implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | null = null;

  constructor(readonly redirectUrl: string) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Agent Under Test",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describe.skipIf(unavailable !== null)("an MCP client authorized through OAuth", () => {
  let server: TestServer;
  let browser: Browser;
  let person: TestUser;
  let callback: Server;
  let callbackUrl = "";
  const codes: string[] = [];

  beforeAll(async () => {
    server = await TestServer.start();
    person = await server.registered("person");
    callback = createServer((request, response) => {
      const code = new URL(request.url ?? "/", "http://127.0.0.1").searchParams.get("code");
      if (code) codes.push(code);
      response.writeHead(200, { "content-type": "text/plain" }).end("You can close this window.");
    });
    await new Promise<void>((resolve) => callback.listen(0, "127.0.0.1", resolve));
    callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => callback?.close(resolve));
    await server?.stop();
  });

  it("discovers, registers, gets the person's consent in a browser, calls tools, and refreshes its token", async () => {
    const auth = new AgentAuth(callbackUrl);
    const mcpUrl = new URL(`${server.url}/mcp`);
    const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth });
    const agent = new Client({ name: "agent-under-test", version: "1.0.0" });
    await expect(agent.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(auth.client?.client_id).toBeTruthy();
    const authorizationUrl = auth.authorizationUrl;
    if (!authorizationUrl) throw new Error("the client was not sent to authorize");
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("resource")).toBe(mcpUrl.href);

    // The person, signed in, sees the consent page and approves.
    const context = await browser.newContext();
    const { hostname } = new URL(server.url);
    const cookie = person.credentials && "cookie" in person.credentials ? person.credentials.cookie : "";
    await context.addCookies([{ name: SESSION_COOKIE, value: cookie, domain: hostname, path: "/" }]);
    const page = await context.newPage();
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(authorizationUrl.href);
    await expect.poll(() => page.textContent("#client-name")).toBe("Agent Under Test");
    expect(await page.textContent("#redirect-host")).toBe(new URL(callbackUrl).host);
    expect(
      await page
        .locator("input[name=scope]")
        .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value)),
    ).toEqual(["pages:read", "pages:comment", "pages:write"]);
    await page.click("button[value=approve]");
    await page.waitForURL((url) => url.href.startsWith(callbackUrl));
    const landed = new URL(page.url());
    expect(landed.searchParams.get("iss")).toBe(server.url);
    await context.close();
    expect(violations).toEqual([]);
    const code = codes.at(-1);
    if (!code) throw new Error("no code reached the client");
    await first.finishAuth(code);
    expect(auth.saved?.refresh_token).toBeTruthy();

    // Connected with its access token: tools work as the person, within the scopes granted.
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth });
    await agent.connect(transport);
    const { tools } = await agent.listTools();
    expect(tools.map((tool) => tool.name)).toContain("create_page");
    const created = await agent.callTool({ name: "create_page", arguments: { title: "Made by the agent" } });
    expect(created.isError ?? false).toBe(false);
    const listed = await person.get("/pages");
    expect((listed.body.data as Array<{ title: string }>).map((item) => item.title)).toContain("Made by the agent");

    // A refused access token is refreshed by the client, and the refresh token rotates.
    const before = auth.saved;
    if (!before?.refresh_token) throw new Error("no refresh token");
    auth.saved = { ...before, access_token: "expired.access.token" };
    await agent.close();
    const again = new Client({ name: "agent-under-test", version: "1.0.0" });
    await again.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth }));
    expect(auth.saved.refresh_token).toBeTruthy();
    expect(auth.saved.refresh_token).not.toBe(before.refresh_token);
    expect((await again.listTools()).tools.length).toBeGreaterThan(0);
    await again.close();
  }, 60_000);
});
