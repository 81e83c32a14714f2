// The API reference: an OpenAPI 3.1 document generated from the zod schemas the routes validate with, served at
// GET /api/v1/openapi.json and browsable at /docs. What a schema cannot say is added here from the route itself:
// the security requirement from `config.access`, the error statuses with the codes each can carry, a summary.
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { RouteOptions } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import { z } from "zod";
import { SESSION_COOKIE } from "../auth/session-verifier.ts";
import { errorCatalogue, type ErrorCode } from "../errors/app-error.ts";
import type { App } from "./create-app.ts";
import type { Requirement } from "./guard.ts";

export const OPENAPI_PATH = "/api/v1/openapi.json";
export const DOCS_PREFIX = "/docs";

/** The operations tag: health checks, listed but not part of the client API. Internal routes are hidden. */
const OPERATIONS_TAG = "operations";

interface Operation {
  readonly summary: string;
  /** Codes beyond those the route's shape implies (see `errorCodes`). */
  readonly errors?: readonly ErrorCode[];
  /** An example request body, shown in the reference. */
  readonly example?: unknown;
}

const IDEMPOTENT: readonly ErrorCode[] = ["idempotency_key_mismatch"];

declare module "fastify" {
  interface FastifyContextConfig {
    /** A multipart/form-data route's fields, for the reference only: the handler reads and checks the parts itself. */
    form?: z.ZodType;
  }
}

/** Keyed by method and OpenAPI path; the test fails when a registered route has no entry. */
const operations: Record<string, Operation> = {
  "GET /healthz": { summary: "The process answers" },
  "GET /readyz": { summary: "Stores reachable and the read models caught up (503 otherwise)" },
  "GET /metrics": { summary: "Prometheus metrics (not served through the gateway)" },
  "POST /api/v1/tokens": {
    summary: "Create an API token (its secret appears only in this answer)",
    example: { name: "CI publisher", scopes: ["pages:read", "pages:write"], expiresAt: null },
  },
  "GET /api/v1/tokens": { summary: "List the caller's API tokens" },
  "DELETE /api/v1/tokens/{tokenId}": { summary: "Revoke an API token" },
  "GET /api/v1/me": { summary: "The current user and how they authenticated" },
  "GET /api/v1/pages": { summary: "List the pages the caller can see, most recently updated first" },
  "POST /api/v1/pages": {
    summary: "Create a page",
    errors: IDEMPOTENT,
    example: { title: "Release checklist", markdown: "# Release checklist\n\n- [ ] tag the build", parentId: null },
  },
  "GET /api/v1/search": { summary: "Full-text search of the pages the caller can see: title matches first, with a marked snippet" },
  "GET /api/v1/pages/resolve": { summary: "Find pages by exact title (case-insensitive)" },
  "GET /api/v1/pages/{pageId}": { summary: "Read a page's record (as of an earlier instant with ?at=)" },
  "GET /api/v1/pages/{pageId}/history": { summary: "A page's changes, with who made them (sharing changes only for those who may share)" },
  "POST /api/v1/pages/{pageId}/restore": { summary: "Restore a page's title, icon and content to an earlier instant (If-Match)", example: { at: "2026-11-01T09:30:00Z" } },
  "GET /api/v1/changes": { summary: "Live change feed (Server-Sent Events) of the pages, folders and threads the caller can see; resume with Last-Event-ID" },
  "GET /api/v1/folders/{folderId}/history": { summary: "A folder's changes, with who made them (sharing changes only for those who may share)" },
  "PATCH /api/v1/pages/{pageId}": { summary: "Rename a page and/or change its icon", example: { title: "Release checklist (v2)" } },
  "DELETE /api/v1/pages/{pageId}": { summary: "Delete a page" },
  "POST /api/v1/pages/{pageId}/images": {
    summary: "Upload an image to a page (JPEG, PNG, GIF or WebP, at most 10 MB); answers its record and markdown",
    errors: [...IDEMPOTENT, "payload_too_large", "unsupported_media_type"],
  },
  "POST /api/v1/imports/obsidian": {
    summary: "Import an Obsidian vault: notes become pages in folders, wikilinks and embedded images are rewritten",
    errors: IDEMPOTENT,
    example: { files: [{ path: "Projects/Plan.md", content: "---\ntitle: The plan\n---\nSee [[Budget]] and ![[chart.png]]" }, { path: "Projects/Budget.md", content: "Numbers" }] },
  },
  "GET /api/v1/images/{imageId}": { summary: "An uploaded image's bytes, for whoever may view its page (ETag, If-None-Match)" },
  "GET /api/v1/pages/{pageId}/content": { summary: "Read a page's markdown, with its ETag (as of an earlier instant with ?at=)" },
  "POST /api/v1/pages/{pageId}/move": { summary: "Move a page into a folder of its workspace, or to its root (null)", example: { parentId: null } },
  "PUT /api/v1/pages/{pageId}/content": {
    summary: "Replace a page's markdown (If-Match with the ETag read)",
    errors: ["precondition_failed", "precondition_required"],
    example: { markdown: "# Release checklist\n\n- [x] tag the build" },
  },
  "PATCH /api/v1/pages/{pageId}/content": {
    summary: "Append or prepend to a page's markdown without reading it first (If-Match optional); answers the new content and ETag",
    errors: ["precondition_failed"],
    example: { append: "\n- 09:30 deploy finished" },
  },
  "POST /api/v1/pages/{pageId}/duplicate": {
    summary: "Duplicate a page: same markdown and icon, its images copied, no comments, history starting at the copy",
    errors: IDEMPOTENT,
    example: { title: "Release checklist (v3)", parentId: null },
  },
  "GET /api/v1/pages/{pageId}/backlinks": { summary: "The pages the caller can view whose markdown links to this page, newest link first" },
  "GET /api/v1/trash": { summary: "Deleted pages and folders the caller could edit, newest deletion first, with when each is purged" },
  "POST /api/v1/trash/{type}/{id}/restore": { summary: "Bring a deleted page or folder (with what was deleted with it) back, into its folder or its owner's root" },
  "GET /api/v1/pages/{pageId}/comments": { summary: "List a page's comment threads" },
  "POST /api/v1/pages/{pageId}/comments": {
    summary: "Open a comment thread on a quote",
    errors: IDEMPOTENT,
    example: { body: "Should this step come first?", anchor: { quote: "tag the build", prefix: "- [ ] ", suffix: "" } },
  },
  "POST /api/v1/pages/{pageId}/comments/{threadId}/replies": { summary: "Reply in a comment thread", errors: IDEMPOTENT, example: { body: "Yes, moved it." } },
  "PATCH /api/v1/pages/{pageId}/comments/{threadId}/status": { summary: "Resolve or reopen a comment thread", example: { status: "resolved" } },
  "PATCH /api/v1/pages/{pageId}/comments/{commentId}": { summary: "Edit one's own comment", example: { body: "Should this step come first? (edited)" } },
  "DELETE /api/v1/pages/{pageId}/comments/{commentId}": { summary: "Delete one's own comment" },
  "GET /api/v1/folders": { summary: "List the folders the caller can see" },
  "GET /api/v1/folders/{folderId}": { summary: "Read a folder's record" },
  "PATCH /api/v1/folders/{folderId}": { summary: "Rename a folder and/or change its icon", example: { name: "Runbooks (old)" } },
  "POST /api/v1/folders/{folderId}/move": { summary: "Move a folder within its workspace (never into itself or below itself)", example: { parentId: null } },
  "DELETE /api/v1/folders/{folderId}": { summary: "Delete an empty folder, or with ?recursive=true the folder and everything below it, to the trash" },
  "POST /api/v1/folders": { summary: "Create a folder", errors: IDEMPOTENT, example: { name: "Runbooks", parentId: null } },
  "GET /api/v1/shares/workspace": { summary: "Workspace sharing: members, pending invitations, workspaces joined" },
  "POST /api/v1/shares/workspace/members": {
    summary: "Add a member to the caller's workspace, or invite an address without an account (202)",
    errors: IDEMPOTENT,
    example: { email: "ada@example.com", role: "viewer" },
  },
  "DELETE /api/v1/shares/workspace/members/{memberId}": { summary: "Remove a member from the caller's workspace" },
  "GET /api/v1/shares/entity/{entityType}/{entityId}": { summary: "Who has access to a page or folder" },
  "POST /api/v1/shares/entity/{entityType}/{entityId}/grants": {
    summary: "Share a page or folder by email, or invite an address without an account (202)",
    errors: IDEMPOTENT,
    example: { email: "ada@example.com", permission: "view" },
  },
  "DELETE /api/v1/shares/entity/{entityType}/{entityId}/grants/{userId}": { summary: "Revoke a user's access to a page or folder" },
  "POST /api/v1/shares/workspace/invitations/by-email/{email}/resend": { summary: "Resend a pending workspace invitation" },
  "POST /api/v1/shares/entity/{entityType}/{entityId}/invitations/by-email/{email}/resend": { summary: "Resend a pending page or folder invitation" },
  "POST /api/v1/shares/invitations/{invitationId}/resend": { summary: "Resend an invitation by its id" },
  "DELETE /api/v1/shares/invitations/{invitationId}": { summary: "Cancel a pending invitation" },
};

const openApiPath = (url: string): string => url.replace(/:([A-Za-z0-9_]+)/g, "{$1}");

function methodOf(route: RouteOptions): string {
  const method = Array.isArray(route.method) ? route.method[0] : route.method;
  return String(method).toUpperCase();
}

/** The security requirement of a route: a bearer token (with the scope it needs) or a browser session. */
function securityOf(access: Requirement | undefined): Array<Record<string, string[]>> {
  if (!access) return [];
  if ("sessionOnly" in access) return [{ browserSession: [] }];
  if ("scope" in access) return [{ bearerToken: [access.scope] }, { browserSession: [] }];
  return [{ bearerToken: [] }, { browserSession: [] }];
}

function accessNote(access: Requirement | undefined): string {
  if (!access) return "Public: no authentication.";
  if ("sessionOnly" in access) return "Browser session only: API tokens are refused (403 `forbidden`).";
  if ("scope" in access) return `Needs an API token with the \`${access.scope}\` scope, or a browser session.`;
  return "Any authenticated caller: an API token of any scope or a browser session.";
}

/** The error codes a route can answer, from its shape: what it authenticates, validates, addresses and writes. */
function errorCodes(route: RouteOptions, access: Requirement | undefined, extra: readonly ErrorCode[]): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  const writes = methodOf(route) !== "GET";
  const hasParams = /:[A-Za-z0-9_]+/.test(route.url);
  if (access) codes.add("validation_failed").add("unauthenticated");
  if (access && "scope" in access) codes.add("insufficient_scope");
  if (access && ("sessionOnly" in access || writes)) codes.add("forbidden");
  if (hasParams) codes.add("not_found");
  if (access && writes) codes.add("conflict");
  if (route.schema?.body) codes.add("payload_too_large").add("unsupported_media_type");
  for (const code of extra) codes.add(code);
  return [...codes].sort((a, b) => errorCatalogue[a] - errorCatalogue[b]);
}

type JsonSchema = Record<string, unknown>;

/** One response per error status, each the route's own error schema, described by the codes it can carry. */
function errorResponses(errorSchema: JsonSchema, codes: readonly ErrorCode[]): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(errorCatalogue[code], [...(byStatus.get(errorCatalogue[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, statusCodes]) => [
      String(status),
      {
        ...structuredClone(errorSchema),
        description: `\`{error: {code, message}}\` with code ${statusCodes.map((code) => `\`${code}\``).join(" or ")}`,
        examples: [{ error: { code: statusCodes[0], message: "what went wrong, in words" } }],
      },
    ]),
  );
}

const successDescriptions: Record<string, string> = {
  "200": "OK",
  "201": "Created",
  "202": "Accepted: recorded but not readable yet (send the X-Consistency-Token on the next read), or an invitation queued",
  "204": "No content",
  "304": "Not modified since the ETag in If-None-Match",
};

const tagOf = (path: string): string => (path.startsWith("/api/v1/") ? (path.split("/")[3] ?? "api") : OPERATIONS_TAG);

const peerDocumentSchema = z.looseObject({
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.looseObject({ schemas: z.record(z.string(), z.unknown()).optional() }).optional(),
  tags: z.array(z.looseObject({ name: z.string() })).optional(),
});
type OpenApiDocument = z.infer<typeof peerDocumentSchema>;

/**
 * The other half of the API's document, for a query node, which registers only the reads: fetched from the
 * command API once it answers, and kept. Until then the node's document holds its own routes only.
 */
class PeerDocument {
  private document: OpenApiDocument | null = null;

  constructor(private readonly url: string) {}

  latest(): OpenApiDocument | null {
    return this.document;
  }

  async get(): Promise<OpenApiDocument | null> {
    if (this.document) return this.document;
    try {
      const response = await fetch(this.url, { signal: AbortSignal.timeout(2_000) });
      const parsed = peerDocumentSchema.safeParse(response.ok ? await response.json() : null);
      if (parsed.success) this.document = parsed.data;
    } catch {
      // The command API is not up yet: the next request asks again.
    }
    return this.document;
  }
}

/** The union of two services' documents: every path with the operations of both, schemas and tags merged. */
function mergeDocuments(own: unknown, peer: OpenApiDocument | null): OpenApiDocument {
  const mine = peerDocumentSchema.parse(own);
  if (!peer) return mine;
  const paths: Record<string, Record<string, unknown>> = { ...peer.paths };
  for (const [path, operations] of Object.entries(mine.paths)) paths[path] = { ...paths[path], ...operations };
  const sortedPaths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  const tags = [...(mine.tags ?? [])];
  for (const tag of peer.tags ?? []) if (!tags.some((known) => known.name === tag.name)) tags.push(tag);
  const schemas = { ...peer.components?.schemas, ...mine.components?.schemas };
  return { ...mine, paths: sortedPaths, tags, components: { ...peer.components, ...mine.components, schemas } };
}

/**
 * Serves the API's OpenAPI document at /api/v1/openapi.json and the reference page at /docs. `peerDocumentUrl`
 * (a query node: the command API's document) makes both show the whole API, not only this service's routes.
 */
export async function registerApiReference(app: App, options: { peerDocumentUrl?: string } = {}): Promise<void> {
  const peer = options.peerDocumentUrl ? new PeerDocument(options.peerDocumentUrl) : null;
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Workspace API",
        version: "1",
        description:
          "Pages, folders, comments and sharing. Every error has the body `{error: {code, message}}`. Any route may also answer " +
          "405 `method_not_allowed`, 414 `uri_too_long` or 431 `headers_too_large` before it runs. Writes answer 202 with " +
          "`status: recorded` when their effect is not readable yet; send the `X-Consistency-Token` they return on the next read.",
      },
      components: {
        securitySchemes: {
          bearerToken: { type: "http", scheme: "bearer", description: "An API token (`Authorization: Bearer <API_TOKEN>`), created with POST /api/v1/tokens" },
          browserSession: { type: "apiKey", in: "cookie", name: SESSION_COOKIE, description: "The session cookie of a signed-in browser" },
        },
      },
      tags: [
        { name: "pages" },
        { name: "folders" },
        { name: "images" },
        { name: "imports" },
        { name: "shares" },
        { name: "tokens" },
        { name: "me" },
        { name: OPERATIONS_TAG, description: "Health checks and metrics for operators; /internal routes are not listed" },
      ],
    },
    transform: (input) => {
      const { route, url } = input;
      if (url.startsWith("/internal/") || url === OPENAPI_PATH || url.startsWith(DOCS_PREFIX)) return { schema: { ...route.schema, hide: true }, url };
      const { schema: transformed } = jsonSchemaTransform(input);
      const schema: JsonSchema = { ...transformed };
      const access = route.config?.access;
      const path = openApiPath(url);
      const operation = operations[`${methodOf(route)} ${path}`];
      const responses = { ...(schema.response as Record<string, JsonSchema> | undefined) };
      const errorSchema = responses["4xx"];
      delete responses["4xx"];
      if (errorSchema) Object.assign(responses, errorResponses(errorSchema, errorCodes(route, access, operation?.errors ?? [])));
      for (const [status, description] of Object.entries(successDescriptions)) {
        const response = responses[status];
        if (response) responses[status] = { ...response, description };
      }
      if (responses["5xx"]) responses["5xx"] = { ...responses["5xx"], description: "`{error: {code, message}}` with code `internal`, `consistency_timeout` or `unavailable`" };
      const form = route.config?.form;
      const body = form ? z.toJSONSchema(form, { io: "input" }) : (schema.body as JsonSchema | undefined);
      return {
        url,
        schema: {
          ...schema,
          ...(operation ? { summary: operation.summary } : {}),
          description: accessNote(access),
          tags: [tagOf(path)],
          security: securityOf(access),
          ...(Object.keys(responses).length > 0 ? { response: responses } : {}),
          ...(body && operation?.example !== undefined ? { body: { ...body, examples: [operation.example] } } : form ? { body } : {}),
        },
      };
    },
    transformObject: jsonSchemaTransformObject,
  });
  // The page reads the same document from /docs/json (swagger-ui fixes that address); OPENAPI_PATH is the one to cite.
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiConfig: { docExpansion: "list", deepLinking: true },
    ...(peer ? { transformSpecification: (own: unknown) => mergeDocuments(own, peer.latest()) } : {}),
    // The page's own request for the document first makes sure the peer's half has been fetched.
    ...(peer ? { uiHooks: { onRequest: async () => void (await peer.get()) } } : {}),
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => (peer ? mergeDocuments(app.swagger(), await peer.get()) : app.swagger()));
}
