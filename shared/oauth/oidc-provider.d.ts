// The part of node-oidc-provider (which ships no types) that the authorization server, and the OpenID provider
// the sign-in tests start, use, typed narrowly.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export type AdapterPayload = Record<string, unknown>;

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number | undefined): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface ClientInfo {
    readonly clientId: string;
    readonly clientName?: string;
    readonly clientUri?: string;
    readonly redirectUris: string[];
    readonly clientIdMetadataDocument?: boolean;
  }

  export interface Interaction {
    readonly uid: string;
    readonly prompt: { readonly name: string; readonly details: Record<string, unknown> };
    readonly params: Record<string, unknown>;
    readonly session?: { readonly accountId?: string };
    readonly grantId?: string;
  }

  export interface Grant {
    readonly jti: string;
    readonly accountId: string;
    readonly clientId: string;
    addResourceScope(resource: string, scope: string): void;
    addOIDCScope(scope: string): void;
    rejectResourceScope(resource: string, scope: string): void;
    rejectOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export interface ProviderContext {
    readonly oidc: { readonly route?: string };
    readonly path: string;
    readonly method: string;
    body: unknown;
  }

  export interface AccessTokenInfo {
    readonly grantId?: string;
    readonly kind: string;
  }

  export interface InteractionResult {
    login?: { accountId: string };
    consent?: { grantId: string };
    error?: string;
    error_description?: string;
  }

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly issuer: string;
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResult,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    readonly Grant: {
      new (init: { accountId: string; clientId: string }): Grant;
      find(id: string): Promise<Grant | undefined>;
    };
    use(middleware: (context: ProviderContext, next: () => Promise<void>) => Promise<void>): void;
    readonly Client: { find(id: string): Promise<ClientInfo | undefined> };
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  export const errors: {
    readonly InvalidTarget: new (description?: string) => Error;
    readonly InvalidClientMetadata: new (description?: string) => Error;
    readonly InvalidRedirectUri: new (description?: string) => Error;
  };

  export default Provider;
}
