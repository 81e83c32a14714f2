// Authentication as one hook: a route declares what it needs (`config: { access: { scope: "pages:write" } }`)
// and the hook authenticates before anything else is looked at (so a stranger gets 401, not 400), then checks
// the API token's scope (403 insufficient_scope) or the session-only rule. What it answers a caller it knows
// is that caller's alone: `Cache-Control: private, no-store` unless the route said otherwise (an ETag's no-cache).
import type { FastifyRequest } from "fastify";
import type { Authenticator } from "../auth/authenticator.ts";
import type { Principal } from "../auth/principal.ts";
import { AppError } from "../errors/app-error.ts";
import type { Scope } from "../kernel/scopes.ts";
import type { App } from "./create-app.ts";

export type Requirement = { scope: Scope } | { sessionOnly: true } | { anyCaller: true };

declare module "fastify" {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Who may call the route; routes without it are public (health checks). */
    access?: Requirement;
  }
}

export function installAuthentication(app: App, authenticator: Authenticator): void {
  app.decorateRequest("principal", null);
  app.addHook("onRequest", async (request) => {
    const requirement = request.routeOptions.config.access;
    if (!requirement) return;
    const principal = await authenticator.authenticate(
      { authorization: request.headers.authorization, cookie: request.headers.cookie },
      request.id,
    );
    if ("scope" in requirement && principal.scopes !== null && !principal.scopes.includes(requirement.scope)) {
      throw new AppError("insufficient_scope", `this API token lacks the ${requirement.scope} scope`);
    }
    if ("sessionOnly" in requirement && principal.authentication !== "session") {
      throw new AppError("forbidden", "this route needs a browser session; API tokens cannot use it");
    }
    request.principal = principal;
  });
  // A callback, not an async function: every answer passes here, and a promise per answer is not free.
  app.addHook("onSend", (request, reply, payload, done) => {
    if (request.principal && !reply.hasHeader("cache-control")) reply.header("cache-control", PRIVATE_NO_STORE);
    done(null, payload);
  });
}

/** What no cache but the caller's own may keep, and not even that one. */
export const PRIVATE_NO_STORE = "private, no-store";

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError("unauthenticated", "sign in or send an API token");
  return request.principal;
}
