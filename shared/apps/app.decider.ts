// An app a user authorized through the OAuth server (one grant of one client), and the clients that registered
// themselves (RFC 7591). No secret is recorded: clients are public (PKCE), and tokens live in the OAuth store.
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import type { Decider } from "../kernel/decider.ts";
import { userIdSchema, type UserId } from "../kernel/ids.ts";
import { scopeSchema, type Scope } from "../kernel/scopes.ts";

/** The authorization server's grant id (a nanoid): an authorized app is named by its grant. */
export const appIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16,64}$/, "an app id")
  .brand<"AppId">();
export type AppId = z.infer<typeof appIdSchema>;

/** A client registered through RFC 7591 (its id is the server's). Client ID Metadata Documents are not recorded. */
export const oauthClientIdSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, "a client id");

/** What a registration keeps of the client's metadata: what the authorization server needs, nothing personal. */
export const registeredClientSchema = z.object({
  client_id: oauthClientIdSchema,
  client_id_issued_at: z.number().int(),
  client_name: z.string().max(200).optional(),
  client_uri: z.string().url().max(2000).optional(),
  logo_uri: z.string().url().max(2000).optional(),
  redirect_uris: z.array(z.string().url().max(2000)).min(1).max(20),
  grant_types: z.array(z.enum(["authorization_code", "refresh_token"])).min(1),
  response_types: z.array(z.literal("code")),
  token_endpoint_auth_method: z.literal("none"),
  application_type: z.enum(["web", "native"]).optional(),
  scope: z.string().max(200).optional(),
});
type RegisteredClient = z.infer<typeof registeredClientSchema>;

const appRevokedBySchema = z.enum(["user", "authorization_server"]);

export const appEventSchemas = [
  z.object({ type: z.literal("OAuthClientRegistered"), data: z.object({ client: registeredClientSchema }) }),
  z.object({
    type: z.literal("AppAuthorized"),
    data: z.object({
      appId: appIdSchema,
      userId: userIdSchema,
      clientId: z.string().min(1).max(2000),
      /** The client's name and home page, as it declared them: sealed under the user's key (which apps they use). */
      clientName: z.string(),
      clientUri: z.string().nullable(),
      redirectHost: z.string(),
      scopes: z.array(scopeSchema).min(1),
    }),
  }),
  /** By the user (DELETE /apps/{appId}), or by the authorization server (a rotated refresh token presented again, a revoked refresh token). */
  z.object({ type: z.literal("AppRevoked"), data: z.object({ appId: appIdSchema, by: appRevokedBySchema }) }),
] as const;
export type AppEvent = z.infer<(typeof appEventSchemas)[number]>;

export type AppCommand =
  | {
      type: "AuthorizeApp";
      appId: AppId;
      userId: UserId;
      clientId: string;
      clientName: string;
      clientUri: string | null;
      redirectHost: string;
      scopes: Scope[];
    }
  | { type: "RevokeApp"; appId: AppId; userId: UserId | null; by: z.infer<typeof appRevokedBySchema> };

export type AppState = { exists: false } | { exists: true; userId: UserId; revoked: boolean };

export const appStream = (appId: string): string => `app-${appId}`;
export const oauthClientStream = (clientId: string): string => `oauth-client-${clientId}`;

export const appDecider: Decider<AppCommand, AppState, AppEvent> = {
  initialState: { exists: false },
  decide(command, state) {
    switch (command.type) {
      case "AuthorizeApp": {
        if (state.exists) throw new AppError("conflict", "this app is already authorized");
        const { type: _type, ...data } = command;
        return [{ type: "AppAuthorized", data }];
      }
      case "RevokeApp":
        // Only its user revokes an app through the API; another's reads as missing.
        if (!state.exists || (command.userId !== null && state.userId !== command.userId))
          throw new AppError("not_found", "app not found");
        if (state.revoked) return [];
        return [{ type: "AppRevoked", data: { appId: command.appId, by: command.by } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case "AppAuthorized":
        return { exists: true, userId: event.data.userId, revoked: false };
      case "AppRevoked":
        return state.exists ? { ...state, revoked: true } : state;
      case "OAuthClientRegistered":
        return state;
    }
  },
};

export type OAuthClientCommand = { type: "RegisterOAuthClient"; client: RegisteredClient };
export type OAuthClientState = { client: RegisteredClient | null };

export const oauthClientDecider: Decider<OAuthClientCommand, OAuthClientState, AppEvent> = {
  initialState: { client: null },
  decide(command, state) {
    if (state.client) throw new AppError("conflict", "this client is already registered");
    return [{ type: "OAuthClientRegistered", data: { client: command.client } }];
  },
  evolve(state, event) {
    return event.type === "OAuthClientRegistered" ? { client: event.data.client } : state;
  },
};
