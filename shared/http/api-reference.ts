// The API reference: an OpenAPI 3.1 document generated from the zod schemas the routes validate with, served at
// GET /api/v1/openapi.json and browsable at /docs. What a schema cannot say is added here from the route itself:
// the security requirement from `config.access`, the error statuses with the codes each can carry (429 where
// the route spends a rate-limit budget), a summary.
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { RouteOptions } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import { z } from "zod";
import { SESSION_COOKIE } from "../auth/session-verifier.ts";
import { errorCatalogue, type ErrorCode } from "../errors/app-error.ts";
import { rateLimitClassOf } from "../rate-limit/request-class.ts";
import type { App } from "./create-app.ts";
import type { Scope } from "../kernel/scopes.ts";
import type { Requirement } from "./guard.ts";
import { errorBody } from "./schemas.ts";

export const OPENAPI_PATH = "/api/v1/openapi.json";
export const DOCS_PREFIX = "/docs";

/** The operations tag: health checks, listed but not part of the client API. Internal routes are hidden. */
const OPERATIONS_TAG = "operations";

interface Operation {
  /** The operationId: what a generated client names the call. */
  readonly id: string;
  readonly summary: string;
  /** Codes beyond those the route's shape implies (see `errorCodes`). */
  readonly errors?: readonly ErrorCode[];
  /** An example request body, shown in the reference. */
  readonly example?: unknown;
  /** The media types of the success answer when it is not JSON (the bytes of a page or an image, a stream). */
  readonly produces?: readonly string[];
  /** The media types the request body may have when JSON is not the only one. */
  readonly consumes?: readonly string[];
  /** Needs If-Match with the page's ETag (412 when it moved on, 428 without it). */
  readonly ifMatch?: true;
  /** Answers an ETag, and 304 to an If-None-Match that holds it. */
  readonly conditional?: true;
  /** Takes a Last-Event-ID to resume from. */
  readonly resumable?: true;
}

const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "pages:read": "Read pages, folders, comments, history, images, search and the change feed",
  "pages:comment": "Read, and open, answer, edit and resolve comment threads",
  "pages:write": "Read, and create, change, move, share and delete pages and folders; upload images; import vaults",
};

const TAGS = [
  { name: "pages", description: "Markdown pages: records, content (text/markdown, under If-Match), moves, history, comments" },
  { name: "folders", description: "Folders of pages" },
  { name: "images", description: "Image bytes uploaded to pages" },
  { name: "imports", description: "Obsidian vault import" },
  { name: "exports", description: "Obsidian vault export" },
  { name: "search", description: "Full-text search" },
  { name: "trash", description: "Deleted pages and folders: listed, restored, purged after the retention period" },
  { name: "changes", description: "The live change feed (Server-Sent Events)" },
  { name: "shares", description: "Workspace members, page and folder grants, invitations" },
  { name: "tokens", description: "API tokens (created by a browser session)" },
  { name: "webhooks", description: "Signed webhooks and their delivery log (managed by a browser session)" },
  { name: "me", description: "The current user" },
  { name: OPERATIONS_TAG, description: "Health checks and metrics for operators; /internal routes are not listed" },
];

const API_DESCRIPTION = [
  "Pages, folders, comments, sharing, images, vault import, history, search and a live change feed.",
  "",
  "**Signing in.** Scripts send an API token (`Authorization: Bearer <API_TOKEN>`); browsers send the session cookie " +
    `\`${SESSION_COOKIE}\`. To get a token on a local server: mint a session with \`npm run -s session -- --email you@example.com --name You\` ` +
    "(run where the server keeps its `DATA_DIR`: it signs with that server's secret), then create the token with it: " +
    `\`curl -b "${SESSION_COOKIE}=$SESSION" -H 'content-type: application/json' -d '{"name":"my script","scopes":["pages:read","pages:write"]}' $BASE/api/v1/tokens\`. ` +
    "Its `token` is shown once. To try calls on this page, sign this browser in: in its console, " +
    `\`document.cookie = "${SESSION_COOKIE}=<SESSION>; path=/"\`; "Try it out" then calls the API as that user.`,
  "",
  "**Answers.** Every error has the body `{error: {code, message}}`. Any route may also answer 405 `method_not_allowed`, 414 `uri_too_long` " +
    "or 431 `headers_too_large` before it runs. Writes answer 202 with `status: recorded` when their effect is not readable yet; send the " +
    "`X-Consistency-Token` they return on the next read.",
].join("\n");

const IDEMPOTENT: readonly ErrorCode[] = ["idempotency_key_mismatch"];

declare module "fastify" {
  interface FastifyContextConfig {
    /** A multipart/form-data route's fields, for the reference only: the handler reads and checks the parts itself. */
    form?: z.ZodType;
  }
}

/** Keyed by method and OpenAPI path; the test fails when a registered route has no entry. */
const operations: Record<string, Operation> = {
  "GET /healthz": { id: "getHealth", summary: "The process answers" },
  "GET /readyz": { id: "getReadiness", summary: "Stores reachable and the read models caught up (503 otherwise)" },
  "GET /metrics": { id: "getMetrics", summary: "Prometheus metrics (not served through the gateway)", produces: ["text/plain"] },
  "POST /api/v1/tokens": { id: "createToken",
    summary: "Create an API token (its secret appears only in this answer)",
    example: { name: "CI publisher", scopes: ["pages:read", "pages:write"], expiresAt: null },
  },
  "GET /api/v1/tokens": { id: "listTokens", summary: "List the caller's API tokens" },
  "DELETE /api/v1/tokens/{tokenId}": { id: "revokeToken", summary: "Revoke an API token" },
  "POST /api/v1/webhooks": { id: "createWebhook",
    summary: "Create a webhook (its signing secret appears only in this answer)",
    example: { url: "https://hooks.example.com/workspace", events: ["page.created", "page.updated"], description: "search indexer", folderId: null },
  },
  "GET /api/v1/webhooks": { id: "listWebhooks", summary: "List the caller's webhooks, newest first" },
  "GET /api/v1/webhooks/{webhookId}": { id: "getWebhook", summary: "Read a webhook (active, or why it was disabled)" },
  "PATCH /api/v1/webhooks/{webhookId}": { id: "updateWebhook", summary: "Change a webhook's URL, events, description or whether it is active" },
  "DELETE /api/v1/webhooks/{webhookId}": { id: "deleteWebhook", summary: "Delete a webhook" },
  "GET /api/v1/webhooks/{webhookId}/deliveries": { id: "listWebhookDeliveries", summary: "A webhook's delivery log, newest first (kept 7 days by default)" },
  "POST /api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry": { id: "retryWebhookDelivery", summary: "Send a delivery again, with the same webhook-id" },
  "POST /api/v1/webhooks/{webhookId}/replay": { id: "replayWebhook", summary: "Deliver again every matching event after a position (a consistency token)", example: { after: "1042" } },
  "GET /api/v1/me": { id: "getMe", summary: "The current user and how they authenticated" },
  "GET /api/v1/pages": { id: "listPages", summary: "List the pages the caller can see, most recently updated first" },
  "POST /api/v1/pages": { id: "createPage",
    summary: "Create a page",
    errors: IDEMPOTENT,
    example: { title: "Release checklist", markdown: "# Release checklist\n\n- [ ] tag the build", parentId: null },
  },
  "GET /api/v1/search": { id: "searchPages", summary: "Full-text search of the pages the caller can see: title matches first, with a marked snippet" },
  "GET /api/v1/pages/resolve": { id: "resolvePages", summary: "Find pages by exact title (case-insensitive)" },
  "GET /api/v1/pages/{pageId}": { id: "getPage", summary: "Read a page's record (as of an earlier instant with ?at=)" },
  "GET /api/v1/pages/{pageId}/history": { id: "getPageHistory", summary: "A page's changes, with who made them (sharing changes only for those who may share)" },
  "POST /api/v1/pages/{pageId}/restore": { id: "restorePage", summary: "Restore a page's title, icon and content to an earlier instant (If-Match)", errors: ["precondition_failed", "precondition_required"], ifMatch: true, produces: ["text/markdown"], example: { at: "2026-11-01T09:30:00Z" } },
  "GET /api/v1/changes": { id: "streamChanges", summary: "Live change feed (Server-Sent Events) of the pages, folders and threads the caller can see; resume with Last-Event-ID", produces: ["text/event-stream"], resumable: true },
  "GET /api/v1/folders/{folderId}/history": { id: "getFolderHistory", summary: "A folder's changes, with who made them (sharing changes only for those who may share)" },
  "PATCH /api/v1/pages/{pageId}": { id: "updatePage", summary: "Rename a page and/or change its icon", example: { title: "Release checklist (v2)" } },
  "DELETE /api/v1/pages/{pageId}": { id: "deletePage", summary: "Delete a page" },
  "POST /api/v1/pages/{pageId}/images": { id: "uploadImage",
    summary: "Upload an image to a page (JPEG, PNG, GIF or WebP, at most 10 MB); answers its record and markdown",
    errors: [...IDEMPOTENT, "payload_too_large", "unsupported_media_type"],
  },
  "POST /api/v1/imports/obsidian": { id: "importObsidianVault",
    summary: "Import an Obsidian vault: notes become pages in folders, wikilinks and embedded images are rewritten",
    errors: IDEMPOTENT,
    example: { files: [{ path: "Projects/Plan.md", content: "---\ntitle: The plan\n---\nSee [[Budget]] and ![[chart.png]]" }, { path: "Projects/Budget.md", content: "Numbers" }] },
  },
  "GET /api/v1/exports/obsidian": { id: "exportObsidianVault", summary: "Export the caller's workspace, or one folder, as an Obsidian vault: a zip of notes and attachments, streamed", produces: ["application/zip"] },
  "GET /api/v1/images/{imageId}": { id: "getImage", summary: "An uploaded image's bytes, for whoever may view its page (ETag, If-None-Match)", produces: ["image/jpeg", "image/png", "image/gif", "image/webp"], conditional: true },
  "GET /api/v1/pages/{pageId}/content": { id: "getPageContent", summary: "Read a page's markdown, with its ETag (as of an earlier instant with ?at=)", produces: ["text/markdown"], conditional: true },
  "POST /api/v1/pages/{pageId}/move": { id: "movePage", summary: "Move a page into a folder of its workspace, or to its root (null)", example: { parentId: null } },
  "PUT /api/v1/pages/{pageId}/content": { id: "replacePageContent",
    summary: "Replace a page's markdown (If-Match with the ETag read)", ifMatch: true, produces: ["text/markdown"], consumes: ["text/markdown", "text/plain", "application/json"],
    errors: ["precondition_failed", "precondition_required"],
    example: { markdown: "# Release checklist\n\n- [x] tag the build" },
  },
  "PATCH /api/v1/pages/{pageId}/content": {
    id: "appendPageContent",
    summary: "Append or prepend to a page's markdown without reading it first (If-Match optional); answers the new content and ETag",
    errors: ["precondition_failed"],
    example: { append: "\n- 09:30 deploy finished" },
  },
  "POST /api/v1/pages/{pageId}/duplicate": {
    id: "duplicatePage",
    summary: "Duplicate a page: same markdown and icon, its images copied, no comments, history starting at the copy",
    errors: IDEMPOTENT,
    example: { title: "Release checklist (v3)", parentId: null },
  },
  "GET /api/v1/pages/{pageId}/backlinks": { id: "listBacklinks", summary: "The pages the caller can view whose markdown links to this page, newest link first" },
  "GET /api/v1/trash": { id: "listTrash", summary: "Deleted pages and folders the caller could edit, newest deletion first, with when each is purged" },
  "POST /api/v1/trash/{type}/{id}/restore": {
    id: "restoreFromTrash",
    summary: "Bring a deleted page or folder (with what was deleted with it) back, into its folder or its owner's root",
  },
  "GET /api/v1/pages/{pageId}/comments": { id: "listCommentThreads", summary: "List a page's comment threads" },
  "POST /api/v1/pages/{pageId}/comments": { id: "createCommentThread",
    summary: "Open a comment thread on a quote",
    errors: IDEMPOTENT,
    example: { body: "Should this step come first?", anchor: { quote: "tag the build", prefix: "- [ ] ", suffix: "" } },
  },
  "POST /api/v1/pages/{pageId}/comments/{threadId}/replies": { id: "replyToCommentThread", summary: "Reply in a comment thread", errors: IDEMPOTENT, example: { body: "Yes, moved it." } },
  "PATCH /api/v1/pages/{pageId}/comments/{threadId}/status": { id: "setCommentThreadStatus", summary: "Resolve or reopen a comment thread", example: { status: "resolved" } },
  "PATCH /api/v1/pages/{pageId}/comments/{commentId}": { id: "editComment", summary: "Edit one's own comment", example: { body: "Should this step come first? (edited)" } },
  "DELETE /api/v1/pages/{pageId}/comments/{commentId}": { id: "deleteComment", summary: "Delete one's own comment" },
  "GET /api/v1/folders": { id: "listFolders", summary: "List the folders the caller can see" },
  "GET /api/v1/folders/{folderId}": { id: "getFolder", summary: "Read a folder's record" },
  "PATCH /api/v1/folders/{folderId}": { id: "updateFolder", summary: "Rename a folder and/or change its icon", example: { name: "Runbooks (old)" } },
  "POST /api/v1/folders/{folderId}/move": { id: "moveFolder", summary: "Move a folder within its workspace (never into itself or below itself)", example: { parentId: null } },
  "DELETE /api/v1/folders/{folderId}": { id: "deleteFolder", summary: "Delete an empty folder, or with ?recursive=true the folder and everything below it, to the trash" },
  "POST /api/v1/folders": { id: "createFolder", summary: "Create a folder", errors: IDEMPOTENT, example: { name: "Runbooks", parentId: null } },
  "GET /api/v1/shares/workspace": { id: "getWorkspaceSharing", summary: "Workspace sharing: members, pending invitations, workspaces joined" },
  "POST /api/v1/shares/workspace/members": { id: "addWorkspaceMember",
    summary: "Add a member to the caller's workspace, or invite an address without an account (202)",
    errors: IDEMPOTENT,
    example: { email: "ada@example.com", role: "viewer" },
  },
  "DELETE /api/v1/shares/workspace/members/{memberId}": { id: "removeWorkspaceMember", summary: "Remove a member from the caller's workspace" },
  "GET /api/v1/shares/entity/{entityType}/{entityId}": { id: "getEntitySharing", summary: "Who has access to a page or folder" },
  "POST /api/v1/shares/entity/{entityType}/{entityId}/grants": { id: "grantEntityAccess",
    summary: "Share a page or folder by email, or invite an address without an account (202)",
    errors: IDEMPOTENT,
    example: { email: "ada@example.com", permission: "view" },
  },
  "DELETE /api/v1/shares/entity/{entityType}/{entityId}/grants/{userId}": { id: "revokeEntityAccess", summary: "Revoke a user's access to a page or folder" },
  "POST /api/v1/shares/workspace/invitations/by-email/{email}/resend": { id: "resendWorkspaceInvitation", summary: "Resend a pending workspace invitation" },
  "POST /api/v1/shares/entity/{entityType}/{entityId}/invitations/by-email/{email}/resend": { id: "resendEntityInvitation", summary: "Resend a pending page or folder invitation" },
  "POST /api/v1/shares/invitations/{invitationId}/resend": { id: "resendInvitation", summary: "Resend an invitation by its id" },
  "DELETE /api/v1/shares/invitations/{invitationId}": { id: "cancelInvitation", summary: "Cancel a pending invitation" },
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
  // A scope is a requirement only an OAuth2 scheme can state (docs/api-decisions.md#api-reference).
  if ("scope" in access) return [{ apiToken: [access.scope] }, { browserSession: [] }];
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
  if (rateLimitClassOf(methodOf(route), route.url)) codes.add("rate_limited");
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

/** The API's error body, one schema every error answer refers to. */
function errorJsonSchema(): JsonSchema {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(errorBody);
  return { ...schema, description: "Every error: a stable snake_case `code` and a `message` in words" };
}
const ERROR_SCHEMA = "Error";
const errorRef = { $ref: `#/components/schemas/${ERROR_SCHEMA}` };

const header = (description: string, schema: JsonSchema = { type: "string" }): JsonSchema => ({ description, schema });

const responseHeaders = {
  etag: header("The entity tag of this version: send it as If-Match to write over it, or If-None-Match to read it again cheaply"),
  consistency: header("The log position of this write: send it as X-Consistency-Token on a later read to see the write there"),
  replayed: header("`true` when this answer replays the first one sent with the same Idempotency-Key", { type: "string", enum: ["true"] }),
  retryAfter: header("Seconds to wait before trying again", { type: "string", pattern: "^[0-9]+$" }),
};

const requestHeader = (name: string, description: string, required = false, schema: JsonSchema = { type: "string" }): JsonSchema => ({
  in: "header",
  name,
  required,
  description,
  schema,
});

/** The request headers an operation reads, from what the table says of it and what every read or write takes. */
function requestHeadersOf(method: string, path: string, operation: Operation): JsonSchema[] {
  const headers: JsonSchema[] = [];
  if (operation.ifMatch) headers.push(requestHeader("If-Match", "The ETag of the page as last read (GET /pages/{pageId}/content); `*` writes over any version", true));
  if (operation.conditional) headers.push(requestHeader("If-None-Match", "An ETag already held: 304 with no body when it is still current"));
  if (operation.errors?.includes("idempotency_key_mismatch")) {
    headers.push(requestHeader("Idempotency-Key", "A key of the caller's choosing: the same key with the same request replays the first answer for 24 hours; with another request, 422 `idempotency_key_mismatch`"));
  }
  if (operation.resumable) headers.push(requestHeader("Last-Event-ID", "The id of the last event received: the feed resumes after it, without a gap or a repeat", false, { type: "string", pattern: "^(0|[1-9][0-9]{0,19})$" }));
  if (method === "get" && path.startsWith("/api/v1/") && !operation.resumable) {
    headers.push(requestHeader("X-Consistency-Token", "The X-Consistency-Token of an earlier write: the read waits (bounded) until that write is visible here"));
  }
  return headers;
}

const isRecord = (value: unknown): value is JsonSchema => value !== null && typeof value === "object" && !Array.isArray(value);

/** Media types for a success answer that is not JSON: the text or bytes themselves. */
function mediaOf(types: readonly string[]): JsonSchema {
  return Object.fromEntries(types.map((type) => [type, { schema: type.startsWith("image/") ? { type: "string", contentMediaType: type } : { type: "string" } }]));
}

/**
 * What the route schemas cannot say, added to each operation of the generated document: its operationId, the
 * headers it reads and answers, the media types of bodies that are not JSON, and the one error schema. Applied
 * to whole documents, so a query node's merge of its own and the command API's half gets the same result.
 */
function finishDocument(document: JsonSchema): JsonSchema {
  const paths = isRecord(document.paths) ? document.paths : {};
  for (const [path, pathItem] of Object.entries(paths)) {
    if (!isRecord(pathItem)) continue;
    for (const [method, found] of Object.entries(pathItem)) {
      const operation = operations[`${method.toUpperCase()} ${path}`];
      if (!isRecord(found) || !operation) continue;
      found.operationId = operation.id;
      const parameters = Array.isArray(found.parameters) ? found.parameters.filter((parameter) => !(isRecord(parameter) && parameter.in === "header")) : [];
      const headers = requestHeadersOf(method, path, operation);
      if (parameters.length + headers.length > 0) found.parameters = [...parameters, ...headers];
      if (operation.consumes && isRecord(found.requestBody) && isRecord(found.requestBody.content)) {
        const sent = found.requestBody.content["application/json"];
        const json = isRecord(sent) ? sent : {};
        const schema = isRecord(json.schema) ? json.schema : {};
        const objectBranch = Array.isArray(schema.anyOf) ? schema.anyOf.find((branch) => isRecord(branch) && branch.type === "object") : schema;
        found.requestBody.content = Object.fromEntries(
          operation.consumes.map((type) => [type, type === "application/json" ? { ...json, schema: objectBranch ?? schema } : { schema: { type: "string" } }]),
        );
      }
      const responses = isRecord(found.responses) ? found.responses : {};
      if (responses["5xx"]) {
        responses["5XX"] = responses["5xx"];
        delete responses["5xx"];
      }
      if (operation.resumable && !responses["200"]) {
        responses["200"] = {
          description:
            "A stream of Server-Sent Events that stays open. Each change the caller may see is one event named `change`, its `id` the " +
            "change's position (send the last one as Last-Event-ID to resume) and its `data` one JSON object: `position`, `type`, " +
            "`occurredAt`, `actor` {id, name, email}, `changes` (as in a page's history) and `entity` {kind: page | folder | thread, id}. " +
            "Comment lines (`:`) keep idle connections open.",
          content: {
            "text/event-stream": {
              schema: { type: "string" },
              example: 'id: 42\nevent: change\ndata: {"position":"42","type":"PageRenamed","occurredAt":"2026-11-01T09:30:00.000Z","actor":{"id":"…","name":"Ann","email":"ann@example.com"},"changes":[],"entity":{"kind":"page","id":"…"}}\n\n',
            },
          },
        };
      }
      for (const [status, response] of Object.entries(responses)) {
        if (!isRecord(response)) continue;
        const content = isRecord(response.content) ? response.content : null;
        const json = content && isRecord(content["application/json"]) ? content["application/json"] : null;
        const isError = /^[45]/.test(status);
        if (isError && json && isRecord(json.schema) && isRecord(json.schema.properties) && json.schema.properties.error) {
          const { schema: _inline, ...media } = json;
          response.content = { "application/json": { ...media, schema: errorRef } };
        }
        const answers: JsonSchema = {};
        if (/^2/.test(status) && operation.produces && json && status !== "202") response.content = mediaOf(operation.produces);
        if ((status === "200" || status === "304") && (operation.conditional || (operation.ifMatch && status === "200"))) answers.ETag = responseHeaders.etag;
        if (/^2/.test(status) && method !== "get" && path.startsWith("/api/v1/")) {
          answers["X-Consistency-Token"] = responseHeaders.consistency;
          if (operation.errors?.includes("idempotency_key_mismatch")) answers["Idempotent-Replayed"] = responseHeaders.replayed;
        }
        if (status === "429" || status === "503" || status === "5XX") answers["Retry-After"] = responseHeaders.retryAfter;
        if (Object.keys(answers).length > 0) response.headers = answers;
      }
    }
  }
  const components = isRecord(document.components) ? document.components : {};
  const schemas = isRecord(components.schemas) ? components.schemas : {};
  return {
    ...document,
    components: { ...components, schemas: { ...schemas, [ERROR_SCHEMA]: errorJsonSchema() } },
  };
}

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
      info: { title: "Workspace API", version: "1", description: API_DESCRIPTION },
      // Relative: the document is served by the API itself, directly or through the gateway.
      servers: [{ url: "/", description: "The server (or gateway) that serves this document" }],
      components: {
        securitySchemes: {
          apiToken: {
            type: "oauth2",
            description:
              "An API token with the scopes the operation lists, sent as `Authorization: Bearer <API_TOKEN>`. Tokens are not issued by an " +
              "OAuth exchange: a signed-in session creates one with POST /api/v1/tokens, naming its scopes.",
            flows: { clientCredentials: { tokenUrl: "/api/v1/tokens", scopes: SCOPE_DESCRIPTIONS } },
          },
          bearerToken: { type: "http", scheme: "bearer", description: "An API token of any scope (`Authorization: Bearer <API_TOKEN>`), created with POST /api/v1/tokens" },
          browserSession: { type: "apiKey", in: "cookie", name: SESSION_COOKIE, description: "The session cookie of a signed-in browser" },
        },
      },
      tags: TAGS,
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
    transformObject: (input) => finishDocument(jsonSchemaTransformObject(input)),
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
