// The authorization server mounted in fastify: node-oidc-provider (a Koa app) answers under /oauth and at
// /.well-known/oauth-authorization-server (RFC 8414); the consent page is ours, served with no script. Fastify
// leaves the provider's bodies unread (it parses its own). DELETE /apps/{appId} revokes an app: its event first,
// then its grant, codes and refresh tokens in the OAuth store.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { errors, type Provider } from "oidc-provider";
import { z } from "zod";
import { appCommands } from "../../../shared/apps/app.commands.ts";
import { appIdSchema } from "../../../shared/apps/app.decider.ts";
import type { Authenticator } from "../../../shared/auth/authenticator.ts";
import type { Principal } from "../../../shared/auth/principal.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { API_PREFIX } from "../../../shared/http/locations.ts";
import { userIdSchema } from "../../../shared/kernel/ids.ts";
import { scopeSchema, type Scope } from "../../../shared/kernel/scopes.ts";
import { resourceOf } from "../../../shared/oauth/access-token.ts";
import { consentHeaders, consentPage, consentProblemPage } from "../../../shared/oauth/consent-page.ts";
import type { OAuthKeys } from "../../../shared/oauth/oauth-keys.ts";
import { redirectTarget } from "../../../shared/oauth/redirect-uris.ts";
import type { OAuthStore } from "../../../shared/oauth/oauth-store.port.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import { writeResponses } from "../write-answer.ts";
import { answerWrites } from "../write-route.ts";
import { oauthAdapterFactory } from "./oauth-adapter.ts";
import { consentPath, describeClient, OAUTH_PREFIX, OAuthProviders } from "./oauth-provider.ts";

const AUTHORIZATION_SERVER_METADATA_PATH = "/.well-known/oauth-authorization-server";
const CONSENT_BODY_LIMIT = 16 * 1024;
const SWEEP_EVERY_MS = 60 * 60_000;

export interface OAuthPorts extends CommandApiPorts {
  readonly authenticator: Authenticator;
  readonly oauthStore: OAuthStore;
  readonly oauthKeys: OAuthKeys;
  readonly publicBaseUrl: string | null;
  readonly allowPrivateNetworks: boolean;
  readonly trustProxy: boolean;
  /** Extra CA certificates for client metadata documents (tests). */
  readonly metadataCa?: string;
}

const consentBody = z.object({
  csrf: z.string().min(1).max(200),
  decision: z.enum(["approve", "deny"]),
  scope: z.array(z.string().max(50)).max(10).default([]),
});

async function readForm(request: FastifyRequest): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > CONSENT_BODY_LIMIT) throw new AppError("payload_too_large", "the form is too large");
    chunks.push(buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

const scopesIn = (value: unknown): Scope[] =>
  typeof value === "string"
    ? [
        ...new Set(
          value.split(" ").flatMap((name) => {
            const scope = scopeSchema.safeParse(name);
            return scope.success ? [scope.data] : [];
          }),
        ),
      ]
    : [];

export async function registerOAuth(app: App, ports: OAuthPorts): Promise<void> {
  const adapter = oauthAdapterFactory(
    {
      store: ports.oauthStore,
      eventStore: ports.eventStore,
      clock: ports.clock,
      logger: ports.logger,
      projection: ports.projection,
      consistencyWaitMs: ports.consistencyWaitMs,
    },
    (message) => new errors.InvalidClientMetadata(message),
  );
  const providers = new OAuthProviders({
    keys: ports.oauthKeys,
    adapter,
    allowPrivateNetworks: ports.allowPrivateNetworks,
    trustProxy: ports.trustProxy,
    ...(ports.metadataCa ? { metadataCa: ports.metadataCa } : {}),
    onError: (error) => ports.logger.error({ event: "oauth.server_error", err: error }),
  });
  const handlers = new WeakMap<Provider, ReturnType<Provider["callback"]>>();
  const issuerOf = (request: FastifyRequest): string =>
    (ports.publicBaseUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, "");
  const providerFor = (request: FastifyRequest): Provider => providers.forIssuer(issuerOf(request));

  const handOver = (request: FastifyRequest, reply: FastifyReply, url?: string): void => {
    const provider = providerFor(request);
    let handler = handlers.get(provider);
    if (!handler) {
      handler = provider.callback();
      handlers.set(provider, handler);
    }
    reply.hijack();
    if (url !== undefined) request.raw.url = url;
    handler(request.raw, reply.raw);
  };

  const csrfFor = (uid: string, userId: string): string =>
    createHmac("sha256", ports.oauthKeys.cookieKeys[0] ?? "")
      .update(`consent:${uid}:${userId}`)
      .digest("base64url");
  const sameToken = (a: string, b: string): boolean =>
    a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

  const problem = (reply: FastifyReply, status: number, message: string) =>
    reply.code(status).headers(consentHeaders(null)).type("text/html; charset=utf-8").send(consentProblemPage(message));

  /** The signed-in person, or null (the page then sends them to sign in and back). */
  const personOf = async (request: FastifyRequest): Promise<Principal | null> => {
    try {
      return await ports.authenticator.authenticate(
        { authorization: undefined, cookie: request.headers.cookie },
        request.id,
      );
    } catch (error) {
      if (error instanceof AppError && error.code === "unauthenticated") return null;
      throw error;
    }
  };

  const interactionOf = async (
    request: FastifyRequest<{ Params: { uid: string } }>,
    reply: FastifyReply,
    provider: Provider,
  ) => {
    try {
      const interaction = await provider.interactionDetails(request.raw, reply.raw);
      return interaction.uid === request.params.uid ? interaction : null;
    } catch {
      return null;
    }
  };

  await app.register(async (scope: App) => {
    // The provider reads its own bodies: fastify leaves every one unread here.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));

    for (const path of [AUTHORIZATION_SERVER_METADATA_PATH, "/.well-known/openid-configuration"]) {
      scope.get(path, { schema: { hide: true } }, async (request, reply) => {
        handOver(request, reply, "/.well-known/openid-configuration");
        return reply;
      });
    }

    scope.get<{ Params: { uid: string } }>(
      `${OAUTH_PREFIX}/consent/:uid`,
      { schema: { hide: true } },
      async (request, reply) => {
        const provider = providerFor(request);
        const interaction = await interactionOf(request, reply, provider);
        if (!interaction)
          return problem(
            reply,
            400,
            "This authorization request has expired or was already answered: start again from the app.",
          );
        const person = await personOf(request);
        if (!person)
          return reply.redirect(`/auth/login?returnTo=${encodeURIComponent(consentPath(interaction.uid))}`, 303);
        const client = await provider.Client.find(String(interaction.params.client_id));
        const redirect = URL.parse(String(interaction.params.redirect_uri));
        if (!client || !redirect) return problem(reply, 400, "This authorization request names no known app.");
        const { name, url } = describeClient(client);
        const scopes = scopesIn(interaction.params.scope);
        if (scopes.length === 0)
          return problem(
            reply,
            400,
            `The app asked for none of this server's scopes (${scopeSchema.options.join(", ")}).`,
          );
        return reply
          .headers(consentHeaders(redirectTarget(redirect.href)))
          .type("text/html; charset=utf-8")
          .send(
            consentPage({
              action: consentPath(interaction.uid),
              csrf: csrfFor(interaction.uid, person.user.id),
              clientName: name,
              clientUrl: url,
              redirectHost: redirect.host,
              scopes,
              userName: person.user.name,
            }),
          );
      },
    );

    scope.post<{ Params: { uid: string } }>(
      `${OAUTH_PREFIX}/consent/:uid`,
      { schema: { hide: true } },
      async (request, reply) => {
        const provider = providerFor(request);
        const origin = request.headers.origin;
        if (origin !== undefined && origin !== new URL(issuerOf(request)).origin)
          return problem(reply, 403, "This answer did not come from this server's page.");
        const form = await readForm(request);
        const body = consentBody.safeParse({
          csrf: form.get("csrf") ?? undefined,
          decision: form.get("decision") ?? undefined,
          scope: form.getAll("scope"),
        });
        if (!body.success) return problem(reply, 400, "The answer could not be read: use the page's buttons.");
        const interaction = await interactionOf(request, reply, provider);
        if (!interaction)
          return problem(
            reply,
            400,
            "This authorization request has expired or was already answered: start again from the app.",
          );
        const person = await personOf(request);
        if (!person || person.authentication !== "session")
          return reply.redirect(`/auth/login?returnTo=${encodeURIComponent(consentPath(interaction.uid))}`, 303);
        if (!sameToken(body.data.csrf, csrfFor(interaction.uid, person.user.id)))
          return problem(reply, 403, "This answer did not come from this server's page.");
        const asked = scopesIn(interaction.params.scope);
        const approved = asked.filter((scope) => body.data.scope.includes(scope));
        if (body.data.decision === "deny" || approved.length === 0) {
          reply.hijack();
          await provider.interactionFinished(
            request.raw,
            reply.raw,
            { error: "access_denied", error_description: "the user did not authorize this app" },
            { mergeWithLastSubmission: false },
          );
          return reply;
        }
        const clientId = String(interaction.params.client_id);
        const client = await provider.Client.find(clientId);
        const redirect = URL.parse(String(interaction.params.redirect_uri));
        if (!client || !redirect) return problem(reply, 400, "This authorization request names no known app.");
        const userId = userIdSchema.parse(person.user.id);
        const grant = new provider.Grant({ accountId: userId, clientId });
        // The scopes are the resource's; the provider also lists them as its own (for its metadata), so both hold them.
        grant.addResourceScope(resourceOf(issuerOf(request)), approved.join(" "));
        grant.addOIDCScope(approved.join(" "));
        // What the user left unticked is recorded as refused, so the token carries the rest and nothing is asked again.
        const refused = asked.filter((scope) => !approved.includes(scope)).join(" ");
        if (refused) {
          grant.rejectResourceScope(resourceOf(issuerOf(request)), refused);
          grant.rejectOIDCScope(refused);
        }
        const appId = appIdSchema.parse(await grant.save());
        const { name, url } = describeClient(client);
        const context = { actorId: userId, correlationId: request.id, now: ports.clock() };
        const { position } = await appCommands.handle(
          ports.eventStore,
          appId,
          {
            type: "AuthorizeApp",
            appId,
            userId,
            clientId,
            clientName: name,
            clientUri: url,
            redirectHost: redirect.host,
            scopes: approved,
          },
          context,
        );
        // The app's first request follows at once: the read models must know it by then.
        if (position !== null) await ports.projection.waitFor(position, ports.consistencyWaitMs);
        reply.hijack();
        await provider.interactionFinished(
          request.raw,
          reply.raw,
          { login: { accountId: userId }, consent: { grantId: appId } },
          { mergeWithLastSubmission: true },
        );
        return reply;
      },
    );

    scope.route({
      method: ["GET", "POST", "OPTIONS"],
      url: `${OAUTH_PREFIX}/*`,
      schema: { hide: true },
      handler: async (request, reply) => {
        handOver(request, reply);
        return reply;
      },
    });
  });

  const answer = answerWrites(ports);
  await app.register(
    async (api: App) => {
      api.delete(
        "/apps/:appId",
        {
          config: { access: { sessionOnly: true } },
          schema: { params: z.object({ appId: appIdSchema }), response: writeResponses({ 204: z.null() }) },
        },
        async (request, reply) =>
          answer(request, reply, async ({ actor: { context } }) => {
            const { appId } = request.params;
            const { position } = await appCommands.handle(
              ports.eventStore,
              appId,
              { type: "RevokeApp", appId, userId: context.actorId, by: "user" },
              context,
            );
            await ports.oauthStore.removeGrant(appId);
            return { position, status: 204 };
          }),
      );
    },
    { prefix: API_PREFIX },
  );

  let sweep: NodeJS.Timeout | null = null;
  app.addHook("onReady", async () => {
    sweep = setInterval(() => {
      ports.oauthStore
        .sweep(ports.clock().getTime(), 1_000)
        .catch((error: unknown) => ports.logger.warn({ event: "oauth.sweep_failed", err: error }));
    }, SWEEP_EVERY_MS);
    sweep.unref();
  });
  app.addHook("onClose", async () => {
    if (sweep) clearInterval(sweep);
    await ports.oauthStore.close();
  });
}
