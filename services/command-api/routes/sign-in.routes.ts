// Signing people in, outside /api/v1 and without authentication: GET /auth/login sends the browser to the
// organisation's OpenID provider, GET /auth/callback takes its answer and sets the session cookie the API reads,
// GET /auth/link does the same for a one-time link printed by `npm run session -- --link`, and POST
// /auth/logout clears it. A person is registered on first sight by the authenticator, as any new session is.
// Served by the command API: a one-time link's use is recorded in the event log.
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { Authenticator } from "../../../shared/auth/authenticator.ts";
import { readCookie } from "../../../shared/auth/authenticator.ts";
import { mintSession, SESSION_COOKIE } from "../../../shared/auth/session-verifier.ts";
import type { OidcSignIn, SignedInPerson } from "../../../shared/auth/sign-in/oidc-sign-in.ts";
import { DEFAULT_RETURN_TO, returnToSchema } from "../../../shared/auth/sign-in/return-to.ts";
import { CALLBACK_PATH, SIGN_IN_FLOW_COOKIE, SIGN_IN_FLOW_SECONDS, SignInFlowSeal } from "../../../shared/auth/sign-in/sign-in-flow.ts";
import { signInLinkCommands } from "../../../shared/auth/sign-in/sign-in-link.commands.ts";
import { SIGN_IN_LINK_PATH, SignInLinks } from "../../../shared/auth/sign-in/sign-in-link.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { EventStore } from "../../../shared/event-store/event-store.port.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import { userIdSchema } from "../../../shared/kernel/ids.ts";

export interface SignInPorts {
  /** The OpenID provider people sign in through; null when OIDC_ISSUER is not set. */
  readonly oidc: OidcSignIn | null;
  /** What sessions are signed with; null when sessions come from AUTH_JWKS_URL's issuer (nothing is signed here). */
  readonly sessionSecret: string | null;
  readonly authenticator: Authenticator;
  readonly eventStore: EventStore;
  readonly clock: () => Date;
  /** PUBLIC_BASE_URL: where browsers reach the server (the redirect URI registered at the provider starts with it). */
  readonly publicBaseUrl: string | null;
}

/** How long a session started here lasts, as one minted by `npm run session`. */
export const SIGNED_IN_SESSION_SECONDS = 7 * 24 * 3600;

const refused = (codes: string, why: string) => errorBody.describe(`\`{error: {code, message}}\` with code ${codes}: ${why}`);
const redirect = (where: string) => z.undefined().describe(`${where} (no body)`);
const NOT_CONFIGURED = "sign-in through an OpenID provider is not configured on this server (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET)";

const loginQuery = z.object({ returnTo: returnToSchema.optional() });
/** What a provider sends back (RFC 6749 4.1.2, RFC 9207's iss); other parameters are passed on untouched. */
const callbackQuery = z.looseObject({
  code: z.string().max(4096).optional(),
  state: z.string().max(512).optional(),
  iss: z.string().max(2048).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
});
const linkQuery = z.object({ token: z.string().max(4096), returnTo: returnToSchema.optional() });

export function signInRoutes(app: App, ports: SignInPorts): void {
  const seal = ports.sessionSecret === null ? null : new SignInFlowSeal(ports.sessionSecret);
  const links = ports.sessionSecret === null ? null : new SignInLinks(ports.sessionSecret);
  const baseOf = (request: FastifyRequest): string => (ports.publicBaseUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, "");
  const secure = (request: FastifyRequest): boolean => baseOf(request).startsWith("https:");
  const attributes = (request: FastifyRequest, path: string, seconds: number) =>
    `Path=${path}; Max-Age=${seconds}; HttpOnly; SameSite=Lax${secure(request) ? "; Secure" : ""}`;
  const forgetFlow = (request: FastifyRequest) => `${SIGN_IN_FLOW_COOKIE}=; ${attributes(request, CALLBACK_PATH, 0)}`;

  /** Registers the person on first sight (through the authenticator, as any new session), sets the cookie and sends them on. */
  async function signedIn(request: FastifyRequest, reply: FastifyReply, person: SignedInPerson, returnTo: string, secret: string) {
    const session = await mintSession(secret, person, SIGNED_IN_SESSION_SECONDS);
    await ports.authenticator.authenticate({ authorization: undefined, cookie: `${SESSION_COOKIE}=${session}` }, request.id);
    const cookie = `${SESSION_COOKIE}=${session}; ${attributes(request, "/", SIGNED_IN_SESSION_SECONDS)}`;
    return reply.header("cache-control", "no-store").header("set-cookie", cookie).redirect(returnTo, 303);
  }

  app.get(
    "/auth/login",
    {
      schema: {
        querystring: loginQuery,
        response: {
          302: redirect("Found: the OpenID provider's authorization endpoint, with a short-lived cookie that keeps this sign-in's state"),
          400: refused("`validation_failed`", "a returnTo that is not a path on this server"),
          404: refused("`not_found`", "sign-in through an OpenID provider is not configured"),
          503: refused("`unavailable`", "the OpenID provider cannot be reached (Retry-After)"),
        },
      },
    },
    async (request, reply) => {
      if (!ports.oidc || !seal) throw new AppError("not_found", NOT_CONFIGURED);
      const { url, flow } = await ports.oidc.start(`${baseOf(request)}${CALLBACK_PATH}`, request.query.returnTo ?? DEFAULT_RETURN_TO);
      const cookie = `${SIGN_IN_FLOW_COOKIE}=${await seal.seal(flow, ports.clock())}; ${attributes(request, CALLBACK_PATH, SIGN_IN_FLOW_SECONDS)}`;
      return reply.header("cache-control", "no-store").header("set-cookie", cookie).redirect(url.href, 302);
    },
  );

  app.get(
    CALLBACK_PATH,
    {
      schema: {
        querystring: callbackQuery,
        response: {
          303: redirect("See Other: the returnTo given to /auth/login, signed in: the session cookie is set"),
          400: refused("`validation_failed`", "a query no provider sends"),
          401: refused(
            "`unauthenticated`",
            "no sign-in under way in this browser (expired, or finished already), a state that is not this browser's, the provider's refusal, or an ID token that fails verification (nonce, audience, issuer, signature, expiry)",
          ),
          404: refused("`not_found`", "sign-in through an OpenID provider is not configured"),
          409: refused("`conflict`", "the provider's address belongs to another account"),
          503: refused("`unavailable` or `consistency_timeout`", "the OpenID provider cannot be reached, or the new account is not readable yet (Retry-After)"),
        },
      },
    },
    async (request, reply) => {
      if (!ports.oidc || !seal || !ports.sessionSecret) throw new AppError("not_found", NOT_CONFIGURED);
      // The sign-in's cookie is spent whatever happens: an answer is used once.
      reply.header("set-cookie", forgetFlow(request)).header("cache-control", "no-store");
      const sealed = readCookie(request.headers.cookie, SIGN_IN_FLOW_COOKIE);
      const flow = sealed === null ? null : await seal.open(sealed, ports.clock());
      if (!flow) throw new AppError("unauthenticated", "no sign-in is under way in this browser (it expired, or was finished already); start again at /auth/login");
      const query = request.url.indexOf("?");
      const person = await ports.oidc.finish(new URL(`${CALLBACK_PATH}${query < 0 ? "" : request.url.slice(query)}`, baseOf(request)), flow);
      return signedIn(request, reply, person, flow.returnTo, ports.sessionSecret);
    },
  );

  app.get(
    SIGN_IN_LINK_PATH,
    {
      schema: {
        querystring: linkQuery,
        response: {
          303: redirect("See Other: returnTo (the API reference when not given), signed in: the session cookie is set"),
          400: refused("`validation_failed`", "no token, or a returnTo that is not a path on this server"),
          401: refused("`unauthenticated`", "a link that is not this server's, has expired, or was used already"),
          404: refused("`not_found`", "sessions are not signed by this server (AUTH_JWKS_URL)"),
          409: refused("`conflict`", "the link's address belongs to another account"),
          503: refused("`consistency_timeout`", "the new account is not readable yet (Retry-After)"),
        },
      },
    },
    async (request, reply) => {
      if (!links || !ports.sessionSecret) throw new AppError("not_found", "sign-in links need sessions signed by this server (AUTH_JWKS_URL is set)");
      const now = ports.clock();
      const opened = await links.open(request.query.token, now);
      if (!opened) throw new AppError("unauthenticated", "this sign-in link is not valid or has expired; print a new one");
      const context = { actorId: userIdSchema.parse(opened.person.sub), correlationId: request.id, now };
      await signInLinkCommands.handle(ports.eventStore, opened.linkId, { type: "UseSignInLink", linkId: opened.linkId, now: now.toISOString() }, context);
      return signedIn(request, reply, opened.person, request.query.returnTo ?? DEFAULT_RETURN_TO, ports.sessionSecret);
    },
  );

  app.post(
    "/auth/logout",
    {
      schema: {
        response: {
          204: z.undefined().describe("Signed out: the session cookie is cleared"),
          403: refused("`forbidden`", "a request sent by another site (Sec-Fetch-Site or Origin)"),
        },
      },
    },
    async (request, reply) => {
      if (fromAnotherSite(request, baseOf(request))) throw new AppError("forbidden", "signing out is only accepted from this site's own pages");
      return reply.header("cache-control", "no-store").header("set-cookie", `${SESSION_COOKIE}=; ${attributes(request, "/", 0)}`).code(204).send();
    },
  );
}

/**
 * A request another site made a browser send (cross-site request forgery): told by Sec-Fetch-Site, which browsers
 * set and pages cannot, or else by an Origin that is not this server's. A client that is no browser sends neither.
 */
function fromAnotherSite(request: FastifyRequest, base: string): boolean {
  const site = request.headers["sec-fetch-site"];
  if (site !== undefined) return site !== "same-origin" && site !== "none";
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  return origin !== new URL(base).origin && origin !== `${request.protocol}://${request.host}`;
}
