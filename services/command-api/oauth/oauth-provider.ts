// The authorization server: node-oidc-provider configured for agents. Authorization code with PKCE (S256 only),
// public clients only, identified by a Client ID Metadata Document or registered dynamically (RFC 7591); `iss`
// in every authorization response (RFC 9207); access tokens are JWTs bound to this server's one resource
// (RFC 8707: the MCP server's address; any other is refused) and live ten minutes; refresh tokens rotate on every
// use, and one presented again revokes the whole grant. One provider per issuer: PUBLIC_BASE_URL, or the address
// a client used when the server has none.
import Provider, { errors, type Adapter, type ClientInfo } from "oidc-provider";
import { scopeSchema } from "../../../shared/kernel/scopes.ts";
import { resourceOf } from "../../../shared/oauth/access-token.ts";
import { clientMetadataFetch } from "../../../shared/oauth/client-metadata-fetch.ts";
import { consentProblemPage } from "../../../shared/oauth/consent-page.ts";
import type { OAuthKeys } from "../../../shared/oauth/oauth-keys.ts";
import { redirectUriProblem } from "../../../shared/oauth/redirect-uris.ts";

export const OAUTH_PREFIX = "/oauth";
export const consentPath = (uid: string): string => `${OAUTH_PREFIX}/consent/${uid}`;

const ACCESS_TOKEN_TTL_S = 10 * 60;
const REFRESH_TOKEN_TTL_S = 30 * 24 * 60 * 60;
const GRANT_TTL_S = 365 * 24 * 60 * 60;
const PROVIDERS_KEPT = 8;

export interface ProviderOptions {
  readonly keys: OAuthKeys;
  readonly adapter: (model: string) => Adapter;
  readonly allowPrivateNetworks: boolean;
  readonly trustProxy: boolean;
  /** Extra CA certificates for client metadata documents (tests). */
  readonly metadataCa?: string;
  readonly onError: (error: unknown) => void;
}

const SCOPES = scopeSchema.options.join(" ");

function configurationFor(issuer: string, options: ProviderOptions): Record<string, unknown> {
  const resource = resourceOf(issuer);
  return {
    adapter: options.adapter,
    clients: [],
    findAccount: async (_ctx: unknown, id: string) => ({ accountId: id, claims: async () => ({ sub: id }) }),
    jwks: { keys: [options.keys.signingJwk] },
    cookies: { keys: options.keys.cookieKeys },
    pkce: { required: () => true },
    responseTypes: ["code"],
    clientAuthMethods: ["none"],
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      id_token_signed_response_alg: "EdDSA",
    },
    enabledJWA: { idTokenSigningAlgValues: ["EdDSA"], requestObjectSigningAlgValues: ["EdDSA"] },
    scopes: ["openid", "offline_access", ...scopeSchema.options],
    claims: { openid: ["sub"] },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      // A client revokes only its own tokens.
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx: unknown, client: ClientInfo, token: { clientId?: string }) =>
          token.clientId === client.clientId,
      },
      clientIdMetadataDocument: {
        enabled: true,
        ack: "draft-02",
        allowClient: async (_ctx: unknown, client: ClientInfo) =>
          client.redirectUris.every((uri) => redirectUriProblem(uri) === null),
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => resource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: unknown, indicator: string) => {
          if (indicator !== resource) throw new errors.InvalidTarget(`this server issues tokens for ${resource} only`);
          return {
            scope: SCOPES,
            audience: resource,
            accessTokenTTL: ACCESS_TOKEN_TTL_S,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg: "EdDSA" } },
          };
        },
      },
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => consentPath(interaction.uid) },
    routes: {
      authorization: `${OAUTH_PREFIX}/authorize`,
      token: `${OAUTH_PREFIX}/token`,
      registration: `${OAUTH_PREFIX}/register`,
      revocation: `${OAUTH_PREFIX}/revoke`,
      jwks: `${OAUTH_PREFIX}/jwks`,
      userinfo: `${OAUTH_PREFIX}/userinfo`,
      end_session: `${OAUTH_PREFIX}/session/end`,
      introspection: `${OAUTH_PREFIX}/token/introspection`,
      pushed_authorization_request: `${OAUTH_PREFIX}/par`,
      code_verification: `${OAUTH_PREFIX}/device`,
      device_authorization: `${OAUTH_PREFIX}/device/auth`,
      backchannel_authentication: `${OAUTH_PREFIX}/backchannel`,
      challenge: `${OAUTH_PREFIX}/challenge`,
      credential: `${OAUTH_PREFIX}/credential`,
    },
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed("refresh_token"),
    expiresWithSession: async () => false,
    extraTokenClaims: async (_ctx: unknown, token: { grantId?: string }) =>
      token.grantId ? { app_id: token.grantId } : undefined,
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_S,
      AuthorizationCode: 60,
      RefreshToken: REFRESH_TOKEN_TTL_S,
      Grant: GRANT_TTL_S,
      Interaction: 10 * 60,
      Session: 60 * 60,
      IdToken: ACCESS_TOKEN_TTL_S,
    },
    fetch: clientMetadataFetch({
      allowPrivateNetworks: options.allowPrivateNetworks,
      ...(options.metadataCa ? { ca: options.metadataCa } : {}),
    }),
    renderError: async (
      ctx: { type: string; body: string; set(name: string, value: string): void },
      out: { error?: string; error_description?: string },
    ) => {
      ctx.type = "html";
      ctx.set("content-security-policy", "default-src 'none'; base-uri 'none'; frame-ancestors 'none'");
      ctx.body = consentProblemPage(out.error_description ?? out.error ?? "the request could not be handled");
    },
  };
}

/** The providers of this process by issuer, the few most recently made kept. */
export class OAuthProviders {
  private readonly providers = new Map<string, Provider>();

  constructor(private readonly options: ProviderOptions) {}

  forIssuer(issuer: string): Provider {
    const known = this.providers.get(issuer);
    if (known) return known;
    const provider = new Provider(issuer, configurationFor(issuer, this.options));
    provider.proxy = this.options.trustProxy;
    provider.on("server_error", (_ctx, error) => this.options.onError(error));
    if (this.providers.size >= PROVIDERS_KEPT) {
      const [oldest] = this.providers.keys();
      if (oldest !== undefined) this.providers.delete(oldest);
    }
    this.providers.set(issuer, provider);
    return provider;
  }
}

/** The client's name and home page as the consent page shows them. */
export function describeClient(client: ClientInfo): { name: string; url: string | null } {
  const url = client.clientUri ?? (client.clientIdMetadataDocument ? client.clientId : null);
  return { name: client.clientName ?? (url ? new URL(url).host : client.clientId), url };
}
