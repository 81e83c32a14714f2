// Sign-in through the organisation's OpenID provider with openid-client (certified OpenID relying party): the
// authorization-code flow with PKCE (S256), state and nonce, the provider found by discovery. What the provider
// answers is turned into the claims of one of our sessions; its refusals become errors that say what failed
// without repeating what the provider or the library said.
import * as client from "openid-client";
import type { Logger } from "pino";
import { z } from "zod";
import { AppError } from "../../errors/app-error.ts";
import { emailAddress } from "../../kernel/email.ts";
import type { OidcSettings } from "../../config/config.ts";
import { userIdForSubject } from "../derived-user-id.ts";
import type { SignInFlow } from "./sign-in-flow.ts";

/** Who signed in, as a session names them (without its expiry). */
export interface SignedInPerson {
  readonly sub: string;
  readonly email: string;
  readonly name: string;
  readonly picture?: string;
}

const SCOPE = "openid email profile";
const DISCOVERY_TIMEOUT_SECONDS = 5;

const refused = (message: string) => new AppError("unauthenticated", message);

/** The claims read from the ID token (and, for what it lacks, the UserInfo endpoint); anything else is ignored. */
const personClaimsSchema = z.object({
  sub: z.string().min(1).max(255),
  email: z.string().optional(),
  email_verified: z.boolean().optional(),
  name: z.string().optional(),
  preferred_username: z.string().optional(),
  picture: z.string().optional(),
});
type PersonClaims = z.infer<typeof personClaimsSchema>;

/** An OAuth error code as RFC 6749 spells them: safe to repeat; anything else is not. */
const oauthErrorCode = z.string().regex(/^[a-z_]{1,64}$/);
/** Which claim an ID token check failed on (openid-client names it in the error's cause). */
const failedClaimSchema = z.object({ cause: z.object({ claim: z.string() }) });

const CLAIM_FAILURES: Readonly<Record<string, string>> = {
  nonce: "the ID token does not belong to this sign-in (nonce mismatch); start again",
  aud: "the ID token was issued to another client (audience mismatch)",
  azp: "the ID token was issued to another client (authorized party mismatch)",
  iss: "the ID token was issued by another provider (issuer mismatch)",
};

export class OidcSignIn {
  private configuration: Promise<client.Configuration> | null = null;

  constructor(
    private readonly settings: OidcSettings,
    private readonly logger: Logger,
  ) {}

  /** Where to send the browser, and what its cookie must keep for the callback. */
  async start(redirectUri: string, returnTo: string): Promise<{ url: URL; flow: SignInFlow }> {
    const configuration = await this.discover();
    const codeVerifier = client.randomPKCECodeVerifier();
    const flow: SignInFlow = { state: client.randomState(), nonce: client.randomNonce(), codeVerifier, returnTo };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: SCOPE,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: "S256",
      state: flow.state,
      nonce: flow.nonce,
    });
    return { url, flow };
  }

  /**
   * Checks the provider's answer (`callbackUrl`: the redirect URI with the query the browser brought) against the
   * flow the browser's cookie kept, redeems the code and verifies the ID token; answers who signed in.
   */
  async finish(callbackUrl: URL, flow: SignInFlow): Promise<SignedInPerson> {
    const configuration = await this.discover();
    if (callbackUrl.searchParams.get("state") !== flow.state) {
      throw refused(
        "this sign-in's state does not match the one this browser started (a replayed or forged answer); start again at /auth/login",
      );
    }
    let tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;
    try {
      tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw this.refusal(error);
    }
    const fromIdToken = personClaimsSchema.safeParse(tokens.claims());
    if (!fromIdToken.success) throw refused("the provider's ID token names no subject");
    const claims = await this.withUserInfo(configuration, fromIdToken.data, tokens.access_token);
    return this.personOf(configuration.serverMetadata().issuer, claims);
  }

  private discover(): Promise<client.Configuration> {
    if (!this.configuration) {
      const { issuer, clientId, clientSecret } = this.settings;
      // The configuration allows http only on a loopback address (a provider on this machine).
      const execute = issuer.protocol === "http:" ? [client.allowInsecureRequests] : [];
      this.configuration = client
        .discovery(issuer, clientId, undefined, client.ClientSecretBasic(clientSecret), {
          execute,
          timeout: DISCOVERY_TIMEOUT_SECONDS,
        })
        .catch((error: unknown) => {
          // Tried again on the next sign-in: a provider down at start is not remembered as down.
          this.configuration = null;
          this.logger.warn({ event: "sign_in.discovery_failed", issuer: issuer.href, code: errorCodeOf(error) });
          throw new AppError("unavailable", "the OpenID provider cannot be reached; try again shortly", {
            "retry-after": "5",
          });
        });
    }
    return this.configuration;
  }

  private async withUserInfo(
    configuration: client.Configuration,
    claims: PersonClaims,
    accessToken: string,
  ): Promise<PersonClaims> {
    if (claims.email !== undefined) return claims;
    // Providers that keep scope claims out of the ID token (oidc-provider by default) answer them at UserInfo.
    try {
      const info = personClaimsSchema.safeParse(await client.fetchUserInfo(configuration, accessToken, claims.sub));
      return info.success ? { ...info.data, ...withoutUndefined(claims) } : claims;
    } catch (error) {
      throw this.refusal(error);
    }
  }

  private personOf(issuer: string, claims: PersonClaims): SignedInPerson {
    if (claims.email_verified === false) throw refused("the provider has not verified this person's email address");
    const email = emailAddress.safeParse(claims.email);
    if (!email.success)
      throw refused("the provider gave no usable email address for this person (the `email` scope is needed)");
    const name = (claims.name ?? claims.preferred_username ?? email.data.slice(0, email.data.lastIndexOf("@")))
      .trim()
      .slice(0, 200);
    const picture = z
      .url({ protocol: /^https$/ })
      .max(2048)
      .safeParse(claims.picture);
    return {
      sub: userIdForSubject(issuer, claims.sub),
      email: email.data,
      name,
      ...(picture.success ? { picture: picture.data } : {}),
    };
  }

  /** What to answer for a failure of the code's redemption or of the ID token's checks, logged by kind only. */
  private refusal(error: unknown): AppError {
    const code = errorCodeOf(error);
    this.logger.warn({ event: "sign_in.refused", code });
    if (error instanceof client.AuthorizationResponseError) {
      const given = oauthErrorCode.safeParse(error.error);
      return refused(`the provider refused the sign-in${given.success ? ` (${given.data})` : ""}`);
    }
    if (error instanceof client.ResponseBodyError) {
      const given = oauthErrorCode.safeParse(error.error);
      return refused(
        `the provider refused to redeem this sign-in's code${given.success ? ` (${given.data})` : ""}; start again at /auth/login`,
      );
    }
    if (error instanceof client.ClientError && error.code === "OAUTH_JWT_CLAIM_COMPARISON_FAILED") {
      const failed = failedClaimSchema.safeParse(error.cause);
      const message = failed.success ? CLAIM_FAILURES[failed.data.cause.claim] : undefined;
      return refused(message ?? "the provider's ID token failed verification");
    }
    if (
      error instanceof client.ClientError &&
      error.code !== undefined &&
      /TIMESTAMP|KEY_SELECTION|INVALID_RESPONSE|COMPARISON/.test(error.code)
    ) {
      return refused("the provider's answer failed verification (its ID token, or the answer's issuer)");
    }
    return new AppError(
      "unavailable",
      "the sign-in could not be completed with the OpenID provider; start again shortly",
      { "retry-after": "5" },
    );
  }
}

function errorCodeOf(error: unknown): string {
  if (error instanceof client.ClientError) return error.code ?? "client_error";
  if (error instanceof client.AuthorizationResponseError || error instanceof client.ResponseBodyError)
    return error.code;
  return error instanceof Error ? error.name : "unknown";
}

function withoutUndefined(claims: PersonClaims): Partial<PersonClaims> {
  return Object.fromEntries(Object.entries(claims).filter(([, value]) => value !== undefined));
}
