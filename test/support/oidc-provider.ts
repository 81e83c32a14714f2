// A real OpenID provider for the sign-in tests: node-oidc-provider on a free loopback port, with one confidential
// client (ours) and an interaction that signs the chosen test person in and consents without a page. A test may
// make it misbehave: `tamperIdToken` rewrites the ID token its token endpoint answers, re-signed with its own key
// (a provider that issues a token for another client, or for another sign-in).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type JWTPayload, type CryptoKey } from "jose";
import Provider from "oidc-provider";

export interface TestPerson {
  readonly sub: string;
  readonly email: string;
  readonly name: string;
}

const KEY_ID = "test-provider-key";

export class TestOpenIdProvider {
  /** Who the next interaction signs in. */
  person: TestPerson = { sub: "person-1", email: "person-1@example.com", name: "Person One" };
  /** False: every request is answered 503, as by a provider that is down. */
  available = true;
  /** Rewrites the claims of the ID token the token endpoint answers next, when set. */
  tamperIdToken: ((claims: JWTPayload) => JWTPayload) | null = null;
  readonly clientId = "workspace";
  readonly clientSecret = "workspace-client-secret-for-tests";
  private provider: {
    readonly oidc: Provider;
    readonly callback: (request: IncomingMessage, response: ServerResponse) => void;
  } | null = null;

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
    private readonly privateKey: CryptoKey,
    private readonly jwk: Record<string, unknown>,
  ) {}

  /** Listens at once (so the issuer is known before the server under test starts); `serve` names our callback. */
  static async listen(): Promise<TestOpenIdProvider> {
    const { privateKey } = await generateKeyPair("RS256", { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: KEY_ID, alg: "RS256", use: "sig" };
    let handle: TestOpenIdProvider | null = null;
    const server = createServer((request, response) => {
      if (!handle) {
        response.writeHead(503).end();
        return;
      }
      handle.handle(request, response).catch(() => response.writeHead(500).end());
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    handle = new TestOpenIdProvider(server, `http://127.0.0.1:${port}`, privateKey, jwk);
    return handle;
  }

  /** Registers our client with the redirect URIs of the server under test (directly, and through a gateway). */
  serve(redirectUris: readonly string[]): void {
    const provider = new Provider(this.issuer, {
      clients: [
        {
          client_id: this.clientId,
          client_secret: this.clientSecret,
          redirect_uris: redirectUris,
          grant_types: ["authorization_code"],
          response_types: ["code"],
        },
      ],
      jwks: { keys: [this.jwk] },
      findAccount: (_context: unknown, id: string) => ({
        accountId: id,
        claims: () =>
          id === this.person.sub
            ? { sub: id, email: this.person.email, email_verified: true, name: this.person.name }
            : { sub: id },
      }),
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
      interactions: { url: (_context: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
      features: { devInteractions: { enabled: false } },
      cookies: { keys: ["test-provider-cookie-key"] },
    });
    provider.use(async (context, next) => {
      await next();
      const tamper = this.tamperIdToken;
      if (!tamper || context.method !== "POST" || context.path !== "/token") return;
      const body = context.body;
      if (typeof body !== "object" || body === null || !("id_token" in body) || typeof body.id_token !== "string")
        return;
      const claims = tamper(decodeJwt(body.id_token));
      context.body = {
        ...body,
        id_token: await new SignJWT(claims)
          .setProtectedHeader({ alg: "RS256", kid: KEY_ID, typ: "JWT" })
          .sign(this.privateKey),
      };
    });
    this.provider = { oidc: provider, callback: provider.callback() };
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!this.provider || !this.available) {
      response.writeHead(503).end();
      return;
    }
    const { oidc: provider, callback } = this.provider;
    if (!request.url?.startsWith("/interaction/")) {
      callback(request, response);
      return;
    }
    // The person "signs in" and consents at once: the test is about the relying party, not the provider's pages.
    const details = await provider.interactionDetails(request, response);
    if (details.prompt.name === "login") {
      await provider.interactionFinished(
        request,
        response,
        { login: { accountId: this.person.sub } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const accountId = details.session?.accountId ?? this.person.sub;
    const clientId = String(details.params.client_id);
    const grant =
      (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
      new provider.Grant({ accountId, clientId });
    grant.addOIDCScope(typeof details.params.scope === "string" ? details.params.scope : "openid");
    const grantId = await grant.save();
    await provider.interactionFinished(request, response, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  /**
   * The provider's part of a sign-in, followed as a browser would without being one: from the authorization URL
   * (the Location /auth/login answered) through the interaction to the answer for the server's callback, which is
   * returned unvisited.
   */
  async authorize(authorizationUrl: string): Promise<string> {
    const jar = new Map<string, string>();
    let url = authorizationUrl;
    for (let hop = 0; hop < 12; hop += 1) {
      if (!url.startsWith(`${this.issuer}/`)) return url;
      const response = await fetch(url, {
        redirect: "manual",
        headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; ") },
      });
      for (const set of response.headers.getSetCookie()) {
        const [pair = ""] = set.split(";");
        const name = pair.slice(0, pair.indexOf("="));
        if (/expires=Thu, 01 Jan 1970/i.test(set)) jar.delete(name);
        else jar.set(name, pair.slice(pair.indexOf("=") + 1));
      }
      const location = response.headers.get("location");
      if (location === null)
        throw new Error(`the provider answered ${response.status} at ${url}: ${await response.text()}`);
      url = new URL(location, url).href;
    }
    throw new Error("the provider redirected too many times");
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, "close");
  }
}
