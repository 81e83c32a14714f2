// Signing people in, outside /api/v1 and without authentication: GET /auth/login sends the browser to the
// organisation's OpenID provider, GET /auth/callback takes its answer and sets the session cookie the API reads,
// GET /auth/link does the same for a one-time link printed by `npm run session -- --link`, and POST
// /auth/logout clears it. A person is registered on first sight by the authenticator, as any new session is.
// Served by the command API: a one-time link's use is recorded in the event log. The OpenID routes exist where a
// provider is configured, the link where this server signs sessions (not with AUTH_JWKS_URL).
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { readCookie, type Authenticator } from "../../../shared/auth/authenticator.ts";
import { mintSession, SESSION_COOKIE } from "../../../shared/auth/session-verifier.ts";
import type { OidcSignIn, SignedInPerson } from "../../../shared/auth/sign-in/oidc-sign-in.ts";
import { DEFAULT_RETURN_TO, returnToSchema } from "../../../shared/auth/sign-in/return-to.ts";
import {
  CALLBACK_PATH,
  SIGN_IN_FLOW_COOKIE,
  SIGN_IN_FLOW_SECONDS,
  SignInFlowSeal,
} from "../../../shared/auth/sign-in/sign-in-flow.ts";
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
const SIGNED_IN_SESSION_SECONDS = 7 * 24 * 3600;

const refused = (codes: string, why: string) =>
  errorBody.describe(`\`{error: {code, message}}\` with code ${codes}: ${why}`);
const redirect = (where: string) => z.undefined().describe(`${where} (no body)`);
/** Signing in spends the read budget (a GET) or the write budget (logout) of the caller's address, as any request does. */
const rateLimited = refused("`rate_limited`", "past the rate limit (Retry-After)");

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

/** What every route here shares: the server's address as browsers see it, cookies, and the end of a sign-in. */
class SignInEdge {
  constructor(private readonly ports: SignInPorts) {}

  baseOf(request: FastifyRequest): string {
    return (this.ports.publicBaseUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, "");
  }

  cookie(request: FastifyRequest, name: string, value: string, path: string, seconds: number): string {
    return `${name}=${value}; Path=${path}; Max-Age=${seconds}; HttpOnly; SameSite=Lax${this.baseOf(request).startsWith("https:") ? "; Secure" : ""}`;
  }

  /** Registers the person on first sight (through the authenticator, as any new session), sets the cookie and sends them on. */
  async signedIn(
    request: FastifyRequest,
    reply: FastifyReply,
    person: SignedInPerson,
    returnTo: string,
    secret: string,
  ) {
    const session = await mintSession(secret, person, SIGNED_IN_SESSION_SECONDS);
    await this.ports.authenticator.authenticate(
      { authorization: undefined, cookie: `${SESSION_COOKIE}=${session}` },
      request.id,
    );
    return reply
      .header("cache-control", "no-store")
      .header("set-cookie", this.cookie(request, SESSION_COOKIE, session, "/", SIGNED_IN_SESSION_SECONDS))
      .redirect(returnTo, 303);
  }
}

export function signInRoutes(app: App, ports: SignInPorts): void {
  const edge = new SignInEdge(ports);
  if (ports.oidc && ports.sessionSecret !== null)
    oidcRoutes(app, ports, edge, ports.oidc, new SignInFlowSeal(ports.sessionSecret));
  if (ports.sessionSecret !== null) linkRoute(app, ports, edge, new SignInLinks(ports.sessionSecret));

  app.post(
    "/auth/logout",
    {
      schema: {
        response: {
          204: z.undefined().describe("Signed out: the session cookie is cleared"),
          403: refused("`forbidden`", "a request another site made a browser send (Sec-Fetch-Site or Origin)"),
          429: rateLimited,
        },
      },
    },
    async (request, reply) => {
      if (fromAnotherSite(request, edge.baseOf(request)))
        throw new AppError("forbidden", "signing out is only accepted from this site's own pages");
      return reply
        .header("cache-control", "no-store")
        .header("set-cookie", edge.cookie(request, SESSION_COOKIE, "", "/", 0))
        .code(204)
        .send();
    },
  );
}

function oidcRoutes(app: App, ports: SignInPorts, edge: SignInEdge, oidc: OidcSignIn, seal: SignInFlowSeal): void {
  const forgetFlow = (request: FastifyRequest) => edge.cookie(request, SIGN_IN_FLOW_COOKIE, "", CALLBACK_PATH, 0);

  app.get(
    "/auth/login",
    {
      schema: {
        querystring: loginQuery,
        response: {
          302: redirect(
            "Found: the OpenID provider's authorization endpoint, with a short-lived cookie that keeps this sign-in's state",
          ),
          400: refused("`validation_failed`", "a returnTo that is not a path on this server"),
          429: rateLimited,
          503: refused("`unavailable`", "the OpenID provider cannot be reached (Retry-After)"),
        },
      },
    },
    async (request, reply) => {
      const { url, flow } = await oidc.start(
        `${edge.baseOf(request)}${CALLBACK_PATH}`,
        request.query.returnTo ?? DEFAULT_RETURN_TO,
      );
      const cookie = edge.cookie(
        request,
        SIGN_IN_FLOW_COOKIE,
        await seal.seal(flow, ports.clock()),
        CALLBACK_PATH,
        SIGN_IN_FLOW_SECONDS,
      );
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
          409: refused("`conflict`", "the provider's address belongs to another account"),
          429: rateLimited,
          503: refused(
            "`unavailable` or `consistency_timeout`",
            "the OpenID provider cannot be reached, or the new account is not readable yet (Retry-After)",
          ),
        },
      },
    },
    async (request, reply) => {
      // The sign-in's cookie is spent whatever happens: an answer is used once.
      reply.header("set-cookie", forgetFlow(request)).header("cache-control", "no-store");
      const sealed = readCookie(request.headers.cookie, SIGN_IN_FLOW_COOKIE);
      const flow = sealed === null ? null : await seal.open(sealed, ports.clock());
      if (!flow)
        throw new AppError(
          "unauthenticated",
          "no sign-in is under way in this browser (it expired, or was finished already); start again at /auth/login",
        );
      const query = request.url.indexOf("?");
      const person = await oidc.finish(
        new URL(`${CALLBACK_PATH}${query < 0 ? "" : request.url.slice(query)}`, edge.baseOf(request)),
        flow,
      );
      return edge.signedIn(request, reply, person, flow.returnTo, seal.secret);
    },
  );
}

function linkRoute(app: App, ports: SignInPorts, edge: SignInEdge, links: SignInLinks): void {
  app.get(
    SIGN_IN_LINK_PATH,
    {
      schema: {
        querystring: linkQuery,
        response: {
          303: redirect("See Other: returnTo (the API reference when not given), signed in: the session cookie is set"),
          400: refused("`validation_failed`", "no token, or a returnTo that is not a path on this server"),
          401: refused("`unauthenticated`", "a link that is not this server's, has expired, or was used already"),
          409: refused("`conflict`", "the link's address belongs to another account"),
          429: rateLimited,
          503: refused("`consistency_timeout`", "the new account is not readable yet (Retry-After)"),
        },
      },
    },
    async (request, reply) => {
      const now = ports.clock();
      const opened = await links.open(request.query.token, now);
      if (!opened)
        throw new AppError("unauthenticated", "this sign-in link is not valid or has expired; print a new one");
      const context = { actorId: userIdSchema.parse(opened.person.sub), correlationId: request.id, now };
      await signInLinkCommands.handle(
        ports.eventStore,
        opened.linkId,
        { type: "UseSignInLink", linkId: opened.linkId, now: now.toISOString() },
        context,
      );
      return edge.signedIn(request, reply, opened.person, request.query.returnTo ?? DEFAULT_RETURN_TO, links.secret);
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
