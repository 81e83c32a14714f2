// Route guards: authenticate before anything else is looked at (so a stranger gets 401, not 400), then check
// the API token's scope (403 insufficient_scope) or the session-only rule.
import type { FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import type { Dependencies } from "../app/dependencies.ts";
import { authenticate } from "../auth/authenticator.ts";
import type { Principal } from "../auth/principal.ts";
import { AppError } from "../errors/app-error.ts";
import type { Scope } from "../kernel/scopes.ts";

declare module "fastify" {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export type Requirement = { scope: Scope } | { sessionOnly: true } | { anyCaller: true };

export function guard(deps: Dependencies, requirement: Requirement): onRequestAsyncHookHandler {
  return async (request) => {
    const principal = await authenticate(deps, request);
    if ("scope" in requirement && principal.scopes !== null && !principal.scopes.includes(requirement.scope)) {
      throw new AppError("insufficient_scope", `this API token lacks the ${requirement.scope} scope`);
    }
    if ("sessionOnly" in requirement && principal.authentication !== "session") {
      throw new AppError("forbidden", "this route needs a browser session; API tokens cannot use it");
    }
    request.principal = principal;
  };
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError("unauthenticated", "sign in or send an API token");
  return request.principal;
}
