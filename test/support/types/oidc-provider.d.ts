// The part of node-oidc-provider (which ships no types) the tests' OpenID provider uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface ProviderContext {
    readonly path: string;
    readonly method: string;
    body: unknown;
  }

  export interface InteractionDetails {
    readonly uid: string;
    readonly prompt: { readonly name: string };
    readonly params: Readonly<Record<string, unknown>>;
    readonly session?: { readonly accountId: string };
    readonly grantId?: string;
  }

  export interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export interface GrantClass {
    new (properties: { accountId: string; clientId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  }

  export interface Account {
    readonly accountId: string;
    claims(): Promise<Record<string, unknown>> | Record<string, unknown>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly Grant: GrantClass;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    use(middleware: (context: ProviderContext, next: () => Promise<void>) => Promise<void>): void;
    interactionDetails(request: IncomingMessage, response: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(request: IncomingMessage, response: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
  }
}
