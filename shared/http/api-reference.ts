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
import { operations, type Operation } from "./api-operations.ts";
import { errorBody } from "./schemas.ts";
import {
  bodyOf,
  isList,
  isRecord,
  mediaOf,
  objectMemberOf,
  withoutUnusedInputs,
  withPartEncodings,
  type JsonSchema,
} from "./api-schema-shapes.ts";
import { mergeDocuments, PeerDocument } from "./peer-document.ts";

const OPENAPI_PATH = "/api/v1/openapi.json";
const DOCS_PREFIX = "/docs";

/** The operations tag: health checks, listed but not part of the client API. Internal routes are hidden. */
const OPERATIONS_TAG = "operations";

const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "pages:read": "Read pages, folders, comments, history, images, attachments, search and the change feed",
  "pages:comment": "Read, and open, answer, edit and resolve comment threads",
  "pages:write":
    "Read, and create, change, move, share and delete pages and folders; upload images and attachments; import vaults",
};

const BEARER_DESCRIPTION = [
  "An API token, sent as `Authorization: Bearer <API_TOKEN>`; a signed-in session creates one with POST /api/v1/tokens, naming its scopes.",
  "An operation that needs a scope lists it under `oauth2`: an API token needs the same scope, and one without it is refused with 403 `insufficient_scope`.",
].join("\n");
const OAUTH_DESCRIPTION = [
  "An app authorized by its user through the server's OAuth 2.1 authorization server (metadata at `/.well-known/oauth-authorization-server`):",
  "authorization code with PKCE (S256), clients identified by a client metadata document or registered at `/oauth/register`, access tokens bound to",
  "this server's resource and sent as `Authorization: Bearer`. Each operation lists the scope it needs; a token without it is refused with 403 `insufficient_scope`.",
].join(" ");

const TAGS = [
  {
    name: "pages",
    description: "Markdown pages: records, content (text/markdown, under If-Match), moves, history, comments",
  },
  { name: "folders", description: "Folders of pages" },
  { name: "images", description: "Image bytes uploaded to pages" },
  {
    name: "attachments",
    description: "Files of any type attached to pages, served safely (a download unless a browser only shows them)",
  },
  { name: "imports", description: "Obsidian vault import" },
  { name: "exports", description: "Obsidian vault export" },
  { name: "search", description: "Full-text search" },
  {
    name: "trash",
    description:
      "Deleted pages and folders: listed, restored, purged (erased) by their owner or after the retention period",
  },
  { name: "changes", description: "The live change feed (Server-Sent Events)" },
  { name: "shares", description: "Workspace members, page and folder grants, invitations" },
  {
    name: "groups",
    description: "Groups of a workspace's people: pages, folders and a workspace role given to all of them at once",
  },
  { name: "tokens", description: "API tokens (created by a browser session)" },
  { name: "apps", description: "Apps the user authorized through OAuth (listed and revoked by a browser session)" },
  { name: "share-links", description: "Public share links of pages and folders: expiry, password, revocation, views" },
  { name: "public", description: "The public pages of share links, outside /api/v1 and without authentication" },
  {
    name: "sign-in",
    description:
      "Signing a browser in (through the organisation's OpenID provider, or a one-time link) and out, outside /api/v1",
  },
  { name: "webhooks", description: "Signed webhooks and their delivery log (managed by a browser session)" },
  { name: "templates", description: "Pages marked as templates, to make new pages from" },
  { name: "users", description: "The people directory: people who share a workspace with the caller" },
  {
    name: "notifications",
    description: "The caller's notifications: mentions, replies, resolutions, shares and memberships",
  },
  {
    name: "audit",
    description: "A workspace's audit trail: who changed its tokens, members, groups, grants, links and webhooks",
  },
  { name: "me", description: "The current user and their notification settings" },
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
    "or 431 `headers_too_large` before it runs. Every write answers an `X-Consistency-Token`: send it on a later read to see the write there. " +
    "A write the read side has not caught up with within a short wait answers 202 instead of its 200 or 201, with the same body, assembled " +
    "by the write side from what it recorded, and `X-Read-Side: behind` (a write that answers 204 answers 202 with no body). " +
    "A read sent with that token, and a browser session's requests until its account is readable, answer 503 `consistency_timeout` " +
    "(with Retry-After) when the read side has not caught up in time; a session whose address is not its account's answers 409 `conflict` " +
    "on every operation.",
].join("\n");

declare module "fastify" {
  interface FastifyContextConfig {
    /** A multipart/form-data route's fields, for the reference only: the handler reads and checks the parts itself. */
    form?: z.ZodType;
  }
}

const openApiPath = (url: string): string => url.replace(/:([A-Za-z0-9_]+)/g, "{$1}");

function methodOf(route: RouteOptions): string {
  const method = Array.isArray(route.method) ? route.method[0] : route.method;
  return String(method).toUpperCase();
}

/**
 * The security requirement of a route: an OAuth app's token, an API token or a browser session, as alternatives.
 * The scope a route needs is listed under the OAuth 2 scheme, which declares the scopes; an API token needs the
 * same scope (the bearer scheme's description says so), and a session none.
 */
function securityOf(access: Requirement | undefined): Array<Record<string, string[]>> {
  if (!access) return [];
  if ("sessionOnly" in access) return [{ browserSession: [] }];
  if ("scope" in access) return [{ oauth2: [access.scope] }, { bearerToken: [] }, { browserSession: [] }];
  return [{ oauth2: [] }, { bearerToken: [] }, { browserSession: [] }];
}

function accessNote(access: Requirement | undefined): string {
  if (!access) return "Public: no authentication.";
  if ("sessionOnly" in access) return "Browser session only: API tokens are refused (403 `forbidden`).";
  if ("scope" in access) return `Needs an API token with the \`${access.scope}\` scope, or a browser session.`;
  return "Any authenticated caller: an API token of any scope or a browser session.";
}

/**
 * The error codes a route can answer, from its shape: what it authenticates, validates, addresses and writes.
 * `serverErrors`: the route documents its 5XX answers itself (a write's), so 503 is not listed apart.
 */
function errorCodes(
  route: RouteOptions,
  access: Requirement | undefined,
  extra: readonly ErrorCode[],
  serverErrors: boolean,
): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  const writes = methodOf(route) !== "GET";
  const hasParams = /:[A-Za-z0-9_]+/.test(route.url);
  if (access) codes.add("validation_failed").add("unauthenticated");
  if (access && "scope" in access) codes.add("insufficient_scope");
  if (access && ("sessionOnly" in access || writes)) codes.add("forbidden");
  if (hasParams) codes.add("not_found");
  // A session is checked against its account on every request, reads too: an address that is not the account's
  // is 409 conflict (docs/guide/tokens.md).
  if (access) codes.add("conflict");
  // A read waits for the read models to reach its X-Consistency-Token, and a session's requests for them to show
  // its account: past CONSISTENCY_WAIT_MS, 503 consistency_timeout.
  if (access && !serverErrors) codes.add("consistency_timeout");
  if (route.schema?.body) codes.add("payload_too_large").add("unsupported_media_type");
  if (rateLimitClassOf(methodOf(route), route.url)) codes.add("rate_limited");
  for (const code of extra) codes.add(code);
  return [...codes].sort((a, b) => errorCatalogue[a] - errorCatalogue[b]);
}

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
  "202":
    "Accepted: recorded, with the same body as the operation's other success answer, assembled by the write side while the read side has not caught up " +
    "(X-Read-Side: behind; send the X-Consistency-Token on the next read), or an invitation queued",
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
  etag: header(
    "The entity tag of this version: send it as If-Match to write over it, or If-None-Match to read it again cheaply",
  ),
  consistency: header(
    "The log position of this write: send it as X-Consistency-Token on a later read to see the write there",
  ),
  replayed: header("`true` when this answer replays the first one sent with the same Idempotency-Key", {
    type: "string",
    enum: ["true"],
  }),
  retryAfter: header("Seconds to wait before trying again", { type: "string", pattern: "^[0-9]+$" }),
  readSide: header(
    "`behind`: the read side has not caught up with this write yet, so the body was assembled by the write side from what it recorded. " +
      "Send the X-Consistency-Token on the next read to see the write there",
    { type: "string", enum: ["behind"] },
  ),
  location: (what: string) =>
    header(`${what}. A path, relative to the server (or gateway) called`, { type: "string", format: "uri-reference" }),
  unreachableMentions: header(
    "The user ids the markdown sent mentions who cannot view the page (or are unknown), comma-separated: those mentions notify no one. " +
      "Absent when every mention reaches someone",
  ),
  contentRange: header(
    "The bytes sent and the file's size (`bytes 0-99/5000`), or the size alone on 416 (`bytes */5000`)",
  ),
};

const requestHeader = (
  name: string,
  description: string,
  required = false,
  schema: JsonSchema = { type: "string" },
): JsonSchema => ({
  in: "header",
  name,
  required,
  description,
  schema,
});

/** The request headers an operation reads, from what the table says of it and what every read or write takes. */
function requestHeadersOf(method: string, path: string, operation: Operation): JsonSchema[] {
  const headers: JsonSchema[] = [];
  if (operation.ifMatch) {
    const required = operation.ifMatch === "required";
    headers.push(
      requestHeader(
        "If-Match",
        `The ETag of the page as last read (GET /pages/{pageId}/content); \`*\` writes over any version${required ? "" : ". Optional: without it the write applies to whatever version is current"}`,
        required,
      ),
    );
  }
  if (operation.conditional)
    headers.push(requestHeader("If-None-Match", "An ETag already held: 304 with no body when it is still current"));
  if (operation.errors?.includes("idempotency_key_mismatch")) {
    headers.push(
      requestHeader(
        "Idempotency-Key",
        "A key of the caller's choosing: the same key with the same request replays the first answer for 24 hours; with another request, 422 `idempotency_key_mismatch`",
      ),
    );
  }
  if (operation.ranged) {
    headers.push(
      requestHeader(
        "Range",
        "One range of bytes (`bytes=0-99`, `bytes=100-`, `bytes=-500`): 206 with those bytes; several ranges are answered with the whole file",
      ),
    );
    headers.push(
      requestHeader("If-Range", "The ETag held: the range is sent only while it is current, otherwise the whole file"),
    );
  }
  if (operation.resumable)
    headers.push(
      requestHeader(
        "Last-Event-ID",
        "The id of the last event received: the feed resumes after it, without a gap or a repeat",
        false,
        { type: "string", pattern: "^(0|[1-9][0-9]{0,19})$" },
      ),
    );
  if (method === "get" && path.startsWith("/api/v1/") && !operation.resumable) {
    headers.push(
      requestHeader(
        "X-Consistency-Token",
        "The X-Consistency-Token of an earlier write: the read waits (bounded) until that write is visible here",
      ),
    );
  }
  return headers;
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
      const parameters = isList(found.parameters)
        ? found.parameters.filter((parameter) => !(isRecord(parameter) && parameter.in === "header"))
        : [];
      const headers = requestHeadersOf(method, path, operation);
      if (parameters.length + headers.length > 0) found.parameters = [...parameters, ...headers];
      if (operation.consumes && isRecord(found.requestBody) && isRecord(found.requestBody.content)) {
        const sent = found.requestBody.content["application/json"];
        const json = isRecord(sent) ? sent : {};
        const schema = isRecord(json.schema) ? json.schema : {};
        const objectBranch = isList(schema.anyOf)
          ? schema.anyOf.find((branch) => isRecord(branch) && branch.type === "object")
          : schema;
        found.requestBody.content = Object.fromEntries(
          operation.consumes.map((type) => [
            type,
            type === "application/json" ? { ...json, schema: objectBranch ?? schema } : { schema: bodyOf(type) },
          ]),
        );
      }
      if (operation.parts && isRecord(found.requestBody) && isRecord(found.requestBody.content)) {
        found.requestBody.content = withPartEncodings(found.requestBody.content, operation.parts);
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
            "`occurredAt`, `actor` {id, name}, `changes` (an object, as in a page's history) and `entity` {kind: page | folder | thread, id}. " +
            "Each of the caller's own notifications, as it is created or updated, is one event named `notification`, its `id` the position " +
            "of that change and its `data` the item GET /api/v1/notifications lists. Comment lines (`:`) keep idle connections open.",
          content: {
            "text/event-stream": {
              schema: { type: "string" },
              example:
                'id: 42\nevent: change\ndata: {"position":"42","type":"PageRenamed","occurredAt":"2026-11-01T09:30:00.000Z","actor":{"id":"…","name":"Ann"},"changes":{"kind":"title","from":"Plan","to":"Q4 plan"},"entity":{"kind":"page","id":"…"}}\n\n' +
                'id: 43\nevent: notification\ndata: {"id":"0b7c4f2e-3d1a-4c8e-9f6b-2a5d8e1c7b40","kind":"replied","actorId":"5f2d9c1e-8a3b-4e7f-b6c4-1d9e2a7f3c58","pageId":"9a1e6d3c-2b7f-4c5a-8e9d-3f6b1c4a7e20","threadId":"c3d8a1f6-7e2b-4d9c-a5f1-6b3e8d2c9a71","createdAt":"2026-11-01T09:31:00.000Z","readAt":null}\n\n',
            },
          },
        };
      }
      for (const [status, response] of Object.entries(responses)) {
        if (!isRecord(response)) continue;
        const content = isRecord(response.content) ? response.content : null;
        const json = content && isRecord(content["application/json"]) ? content["application/json"] : null;
        const isError = /^[45]/.test(status);
        if (
          isError &&
          json &&
          isRecord(json.schema) &&
          isRecord(json.schema.properties) &&
          json.schema.properties.error
        ) {
          const { schema: _inline, ...media } = json;
          response.content = { "application/json": { ...media, schema: errorRef } };
        }
        if (isError && path.startsWith("/s/")) {
          // A share link's public pages answer their refusals as HTML pages (a browser shows them), the rate limit's
          // too; what is refused before the route runs (a body it cannot read) is answered as anywhere else, as JSON.
          if (json && isRecord(json.schema) && json.schema.type === "string")
            response.content = { "text/html": { schema: { type: "string" } } };
        }
        const answers: JsonSchema = {};
        const writes = method !== "get" && path.startsWith("/api/v1/");
        // A write answering nothing (204) answers 202 with nothing too.
        if (status === "202" && writes && json && isRecord(json.schema) && json.schema.type === "null")
          delete response.content;
        if (/^2/.test(status) && operation.produces && json) {
          // A route answering JSON besides other media types (a diff: text, or hunks on Accept: application/json)
          // keeps its JSON schema for application/json; the other types are strings.
          const record = operation.produces.includes("application/json") ? objectMemberOf(json.schema) : null;
          const others = operation.produces.filter((type) => type !== "application/json" || record === null);
          response.content = { ...mediaOf(others), ...(record ? { "application/json": { schema: record } } : {}) };
        }
        // A page's markdown under /api/v1 answers its ETag (a share link's public page does not).
        const answersDocument = operation.produces?.includes("text/markdown") === true && path.startsWith("/api/v1/");
        if ((status === "200" || status === "304") && operation.conditional) answers.ETag = responseHeaders.etag;
        if ((status === "200" || status === "202") && answersDocument) answers.ETag = responseHeaders.etag;
        if (status === "202" && writes && !operation.accepted) answers["X-Read-Side"] = responseHeaders.readSide;
        if ((status === "200" || status === "202") && operation.mentions)
          answers["Unreachable-Mentions"] = responseHeaders.unreachableMentions;
        if (/^2/.test(status) && writes && !operation.accepted) {
          answers["X-Consistency-Token"] = responseHeaders.consistency;
          if (operation.errors?.includes("idempotency_key_mismatch"))
            answers["Idempotent-Replayed"] = responseHeaders.replayed;
        }
        if ((status === "206" || status === "416") && operation.ranged)
          answers["Content-Range"] = responseHeaders.contentRange;
        if ((status === "201" || status === "202") && operation.location)
          answers.Location = responseHeaders.location(operation.location);
        if ((status === "302" || status === "303") && operation.redirect) {
          // A 302 leaves the site (to the OpenID provider): its Location is an absolute URL, not a path of ours.
          answers.Location =
            status === "302"
              ? header(operation.redirect.location, { type: "string", format: "uri" })
              : responseHeaders.location(operation.redirect.location);
          answers["Set-Cookie"] = header(operation.redirect.cookie);
        }
        if (status === "429" || status === "503" || status === "5XX")
          answers["Retry-After"] = responseHeaders.retryAfter;
        // Sent on every answer of this status (test/http/api/api-conformance.test.ts checks it): a client may rely
        // on them.
        const always = ["X-Consistency-Token", "ETag", "Location", ...(status === "429" ? ["Retry-After"] : [])];
        for (const name of always) if (isRecord(answers[name])) answers[name] = { ...answers[name], required: true };
        if (Object.keys(answers).length > 0) response.headers = answers;
      }
    }
  }
  const components = isRecord(document.components) ? document.components : {};
  const schemas = isRecord(components.schemas) ? components.schemas : {};
  return {
    ...document,
    components: {
      ...components,
      schemas: { ...withoutUnusedInputs(document, schemas), [ERROR_SCHEMA]: errorJsonSchema() },
    },
  };
}

const tagOf = (path: string): string =>
  path.endsWith("/share-links")
    ? "share-links"
    : path.startsWith("/api/v1/")
      ? (path.split("/")[3] ?? "api")
      : path.startsWith("/s/")
        ? "public"
        : path.startsWith("/auth/")
          ? "sign-in"
          : OPERATIONS_TAG;

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
          oauth2: {
            type: "oauth2",
            description: OAUTH_DESCRIPTION,
            flows: {
              authorizationCode: {
                authorizationUrl: "/oauth/authorize",
                tokenUrl: "/oauth/token",
                refreshUrl: "/oauth/token",
                scopes: SCOPE_DESCRIPTIONS,
              },
            },
          },
          bearerToken: { type: "http", scheme: "bearer", description: BEARER_DESCRIPTION },
          browserSession: {
            type: "apiKey",
            in: "cookie",
            name: SESSION_COOKIE,
            description: "The session cookie of a signed-in browser",
          },
        },
      },
      tags: TAGS,
    },
    transform: (input) => {
      const { route, url } = input;
      // The MCP server speaks JSON-RPC as the MCP specification describes it, and the OAuth authorization server
      // OAuth: they and their RFC 9728 / RFC 8414 metadata are not operations of the reference.
      const mcp = url === "/mcp" || url.startsWith("/.well-known/") || url.startsWith("/oauth/");
      if (url.startsWith("/internal/") || url === OPENAPI_PATH || url.startsWith(DOCS_PREFIX) || mcp)
        return { schema: { ...route.schema, hide: true }, url };
      const { schema: transformed } = jsonSchemaTransform(input);
      const schema: JsonSchema = { ...transformed };
      const access = route.config?.access;
      const path = openApiPath(url);
      const operation = operations[`${methodOf(route)} ${path}`];
      const responses = { ...(schema.response as Record<string, JsonSchema> | undefined) };
      const errorSchema = responses["4xx"];
      delete responses["4xx"];
      if (errorSchema)
        Object.assign(
          responses,
          errorResponses(errorSchema, errorCodes(route, access, operation?.errors ?? [], "5xx" in responses)),
        );
      for (const [status, description] of Object.entries(successDescriptions)) {
        const response = responses[status];
        if (response) responses[status] = { ...response, description };
      }
      if (responses["5xx"])
        responses["5xx"] = {
          ...responses["5xx"],
          description: "`{error: {code, message}}` with code `internal`, `consistency_timeout` or `unavailable`",
        };
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
          ...(body && operation?.example !== undefined
            ? { body: { ...body, examples: [operation.example] } }
            : form
              ? { body }
              : {}),
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
    ...(peer ? { uiHooks: { onRequest: (_request, _reply, done) => void peer.get().then(() => done(), done) } } : {}),
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () =>
    peer ? mergeDocuments(app.swagger(), await peer.get()) : app.swagger(),
  );
}
