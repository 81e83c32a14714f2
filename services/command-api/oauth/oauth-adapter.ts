// node-oidc-provider's storage: registered clients are events (OAuthClientRegistered, read back from their
// stream), a grant's end is an event (AppRevoked), and everything short-lived or secret (sessions, interactions,
// codes, refresh tokens, a grant's details) is in the OAuth store, keyed by the hash of its id.
import type { Adapter, AdapterPayload } from "oidc-provider";
import type { Logger } from "pino";
import { appIdSchema, oauthClientIdSchema, registeredClientSchema } from "../../../shared/apps/app.decider.ts";
import { appCommands, oauthClientCommands } from "../../../shared/apps/app.commands.ts";
import type { EventStore } from "../../../shared/event-store/event-store.port.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import { userIdSchema } from "../../../shared/kernel/ids.ts";
import { redirectUriProblem } from "../../../shared/oauth/redirect-uris.ts";
import { hashOAuthId, type OAuthStore } from "../../../shared/oauth/oauth-store.port.ts";

/** Who registrations are recorded as: a client registers itself, before anyone signs in. */
const ANONYMOUS_ACTOR = userIdSchema.parse("00000000-0000-0000-0000-000000000000");

export interface OAuthAdapterPorts {
  readonly store: OAuthStore;
  readonly eventStore: EventStore;
  readonly clock: () => Date;
  readonly logger: Logger;
  readonly projection: { waitFor(position: number, timeoutMs: number): Promise<boolean> };
  readonly consistencyWaitMs: number;
}

const stringOf = (value: unknown): string | null => (typeof value === "string" && value.length > 0 ? value : null);

/** Registrations: the client's metadata as an event, its id the stream's. Nothing personal (no contacts) is kept. */
class ClientAdapter implements Adapter {
  constructor(
    private readonly ports: OAuthAdapterPorts,
    private readonly invalidMetadata: (message: string) => Error,
  ) {}

  async upsert(id: string, payload: AdapterPayload): Promise<void> {
    const client = registeredClientSchema.safeParse(payload);
    if (!client.success || client.data.client_id !== id)
      throw this.invalidMetadata(
        "this server registers public clients (token_endpoint_auth_method none) using the authorization code flow only",
      );
    const refused = client.data.redirect_uris.map(redirectUriProblem).find((problem) => problem !== null);
    if (refused) throw this.invalidMetadata(refused);
    const context = { actorId: ANONYMOUS_ACTOR, correlationId: `oauth-registration-${id}`, now: this.ports.clock() };
    await oauthClientCommands.handle(
      this.ports.eventStore,
      id,
      { type: "RegisterOAuthClient", client: client.data },
      context,
    );
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (!oauthClientIdSchema.safeParse(id).success) return undefined;
    const { client } = await oauthClientCommands.load(this.ports.eventStore, id);
    return client ?? undefined;
  }

  async findByUid(): Promise<undefined> {
    return undefined;
  }
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }
  async consume(): Promise<void> {}
  async destroy(): Promise<void> {}
  async revokeByGrantId(): Promise<void> {}
}

/** Every other model in the OAuth store. A grant destroyed by the server (a code or rotated refresh token used again, a refresh token revoked) revokes its app. */
class StoreAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly ports: OAuthAdapterPorts,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number | undefined): Promise<void> {
    const now = this.ports.clock().getTime();
    // The id is often the secret itself: the stored payload keeps it only where a look-up by uid needs it back.
    const { jti: _jti, ...rest } = payload;
    const stored = this.model === "Session" ? payload : rest;
    const grantId = this.model === "Grant" ? id : stringOf(payload.grantId);
    const uid = this.model === "Session" ? stringOf(payload.uid) : null;
    await this.ports.store.put(this.model, hashOAuthId(id), {
      payload: stored,
      grantId,
      uidHash: uid === null ? null : hashOAuthId(uid),
      expiresAt: typeof expiresIn === "number" ? now + expiresIn * 1000 : null,
    });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const entry = await this.ports.store.get(this.model, hashOAuthId(id), this.ports.clock().getTime());
    return entry ? { ...entry.payload, jti: id } : undefined;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const found = await this.ports.store.findByUid(hashOAuthId(uid), this.ports.clock().getTime());
    return found?.entry.payload;
  }

  async findByUserCode(): Promise<undefined> {
    return undefined;
  }

  async consume(id: string): Promise<void> {
    await this.ports.store.consume(this.model, hashOAuthId(id), Math.floor(this.ports.clock().getTime() / 1000));
  }

  async destroy(id: string): Promise<void> {
    await this.ports.store.remove(this.model, hashOAuthId(id));
    if (this.model === "Grant") await revokeApp(this.ports, id);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.ports.store.removeGrant(grantId);
  }
}

/** Records the app's revocation by the server and waits for the read models, so its access tokens stop at once. */
async function revokeApp(ports: OAuthAdapterPorts, grantId: string): Promise<void> {
  const appId = appIdSchema.safeParse(grantId);
  if (!appId.success) return;
  const context = { actorId: ANONYMOUS_ACTOR, correlationId: `oauth-grant-${grantId}`, now: ports.clock() };
  try {
    const { position } = await appCommands.handle(
      ports.eventStore,
      appId.data,
      { type: "RevokeApp", appId: appId.data, userId: null, by: "authorization_server" },
      context,
    );
    if (position !== null) await ports.projection.waitFor(position, ports.consistencyWaitMs);
  } catch (error) {
    // A grant never confirmed by its user (no app) has nothing to revoke.
    if (!(error instanceof AppError && error.code === "not_found")) throw error;
  }
}

export function oauthAdapterFactory(
  ports: OAuthAdapterPorts,
  invalidMetadata: (message: string) => Error,
): (model: string) => Adapter {
  return (model) => (model === "Client" ? new ClientAdapter(ports, invalidMetadata) : new StoreAdapter(model, ports));
}
