// The API reference documents every core route and every route the server registers, each with the
// scope it needs and its error answers, as an OpenAPI 3.1 document whose schemas are valid JSON Schema 2020-12.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeEvent, notificationEvent } from "../../../services/query-api/routes/changes.routes.ts";
import { TestServer } from "../../support/server.ts";

/** The core routes (tokens, pages, comments, folders, sharing, import), method and path below /api/v1. */
const coreRoutes = [
  "POST /tokens",
  "GET /me",
  "GET /pages",
  "POST /pages",
  "GET /pages/resolve",
  "PATCH /pages/{pageId}",
  "GET /pages/{pageId}/content",
  "POST /pages/{pageId}/images",
  "GET /pages/{pageId}/comments",
  "POST /pages/{pageId}/comments",
  "PATCH /pages/{pageId}/comments/{threadId}/status",
  "PATCH /pages/{pageId}/comments/{commentId}",
  "GET /folders",
  "POST /folders",
  "GET /shares/workspace",
  "POST /shares/workspace/members",
  "POST /shares/workspace/invitations/by-email/{email}/resend",
  "POST /shares/entity/{entityType}/{entityId}/grants",
  "POST /shares/entity/{entityType}/{entityId}/invitations/by-email/{email}/resend",
  "POST /shares/invitations/{invitationId}/resend",
  "POST /imports/obsidian",
];

interface HeaderObject {
  description?: string;
  schema: object;
}
interface OperationObject {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ in: string; name: string; required?: boolean; schema: object }>;
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<
    string,
    { description: string; headers?: Record<string, HeaderObject>; content?: Record<string, { schema: object }> }
  >;
}
interface JsonSchemaObject {
  $ref?: string;
  type?: string | string[];
  required?: string[];
  properties?: Record<string, JsonSchemaObject>;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers?: Array<{ url: string }>;
  tags: Array<{ name: string }>;
  components: {
    securitySchemes: Record<
      string,
      {
        type: string;
        scheme?: string;
        in?: string;
        name?: string;
        flows?: { authorizationCode?: { authorizationUrl: string; tokenUrl: string; scopes: Record<string, string> } };
      }
    >;
    schemas: Record<string, JsonSchemaObject>;
  };
  paths: Record<string, Record<string, OperationObject>>;
}

const registered: Array<{ method: string; url: string }> = [];
let server: TestServer;
let document: OpenApiDocument;

beforeAll(async () => {
  // Every fastify instance created while the server starts announces itself here; its onRoute hook then sees
  // each route the real entry point registers.
  const collect = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook("onRoute", (route) => {
      for (const method of [route.method].flat())
        registered.push({ method: String(method).toUpperCase(), url: route.url });
    });
  };
  subscribe("fastify.initialization", collect);
  try {
    server = await TestServer.start();
  } finally {
    unsubscribe("fastify.initialization", collect);
  }
  const reply = await server.anonymous().get("/api/v1/openapi.json");
  expect(reply.status).toBe(200);
  document = JSON.parse(reply.text) as OpenApiDocument;
});
afterAll(async () => {
  await server.stop();
});

const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
const operation = (method: string, path: string): OperationObject | undefined =>
  document.paths[path]?.[method.toLowerCase()];
const isDocsAsset = (url: string) => url === "/docs" || url.startsWith("/docs/") || url === "/api/v1/openapi.json";
/** The command API's routes for query nodes: not exposed through the gateway, so not in the reference. */
const isInternal = (url: string) => url.startsWith("/internal/");
/** The MCP server and its RFC 9728 metadata: JSON-RPC as the MCP specification describes it, not API operations. */
// The MCP server and the OAuth authorization server speak their own protocols, described by their RFC 9728 and
// RFC 8414 metadata, not by this reference.
const isMcp = (url: string) => url === "/mcp" || url.startsWith("/.well-known/") || url.startsWith("/oauth/");
const apiRoutes = () =>
  registered.filter(({ method, url }) => method !== "HEAD" && !isDocsAsset(url) && !isInternal(url) && !isMcp(url));

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 with three security schemes, OAuth 2 (authorization code), an API token and a browser session", () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info).toEqual(expect.objectContaining({ title: expect.any(String), version: expect.any(String) }));
    expect(document.servers).toEqual([expect.objectContaining({ url: "/" })]);
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual([
      "bearerToken",
      "browserSession",
      "oauth2",
    ]);
    expect(document.components.securitySchemes.oauth2).toEqual(
      expect.objectContaining({
        type: "oauth2",
        flows: {
          authorizationCode: expect.objectContaining({
            authorizationUrl: "/oauth/authorize",
            tokenUrl: "/oauth/token",
            scopes: expect.objectContaining({
              "pages:read": expect.any(String),
              "pages:comment": expect.any(String),
              "pages:write": expect.any(String),
            }),
          }),
        },
      }),
    );
    expect(document.components.securitySchemes.bearerToken).toEqual(
      expect.objectContaining({ type: "http", scheme: "bearer" }),
    );
    expect(document.components.securitySchemes.browserSession).toEqual(
      expect.objectContaining({ type: "apiKey", in: "cookie", name: "app-auth.session_token" }),
    );
  });

  it("says in its introduction how a write answers before the read side has caught up: the same record, X-Read-Side", () => {
    const answers = /\*\*Answers\.\*\*([\s\S]*)/.exec(document.info.description)?.[1] ?? "";
    expect(answers).toContain("202");
    expect(answers).toContain("X-Read-Side: behind");
    expect(answers).toContain("X-Consistency-Token");
    expect(answers).not.toContain("status: recorded");
  });

  it("names a declared scheme, and a scope that exists, in every security requirement", () => {
    const scopes = ["pages:read", "pages:comment", "pages:write"];
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, found] of Object.entries(methods)) {
        for (const requirement of found.security ?? []) {
          for (const [scheme, roles] of Object.entries(requirement)) {
            expect(Object.keys(document.components.securitySchemes), `${method} ${path}`).toContain(scheme);
            for (const role of roles) expect(scopes, `${method} ${path}`).toContain(role);
          }
        }
      }
    }
  });

  it("lists every core route", () => {
    const missing = coreRoutes.filter((route) => {
      const [method = "", path = ""] = route.split(" ");
      return !operation(method, `/api/v1${path}`);
    });
    expect(missing).toEqual([]);
  });

  it("lists every route the server registers, and no other", () => {
    const routes = apiRoutes().map(({ method, url }) => `${method} ${openApiPath(url)}`);
    expect(routes.length).toBeGreaterThan(30);
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect([...new Set(routes)].sort()).toEqual(documented.sort());
  });

  it("hides the internal routes", () => {
    expect(registered.some(({ url }) => isInternal(url))).toBe(true);
    expect(Object.keys(document.paths).filter(isInternal)).toEqual([]);
  });

  it("gives every operation a summary and a tag", () => {
    for (const { method, url } of apiRoutes()) {
      const found = operation(method, openApiPath(url));
      expect(found?.summary, `${method} ${url}`).toEqual(expect.any(String));
      expect(found?.tags, `${method} ${url}`).toHaveLength(1);
    }
  });

  it("states the scope of every API operation under the OAuth 2 scheme, beside an API token and the browser session", () => {
    for (const route of coreRoutes) {
      const [method = "", path = ""] = route.split(" ");
      const security = operation(method, `/api/v1${path}`)?.security;
      if (route === "POST /tokens") expect(security, route).toEqual([{ browserSession: [] }]);
      else if (route === "GET /me")
        expect(security, route).toEqual([{ oauth2: [] }, { bearerToken: [] }, { browserSession: [] }]);
      else
        expect(security, route).toEqual([
          { oauth2: [expect.stringMatching(/^pages:(read|comment|write)$/)] },
          { bearerToken: [] },
          { browserSession: [] },
        ]);
    }
    expect(operation("GET", "/api/v1/pages/resolve")?.security?.[0]).toEqual({ oauth2: ["pages:read"] });
    expect(operation("PATCH", "/api/v1/pages/{pageId}/comments/{commentId}")?.security?.[0]).toEqual({
      oauth2: ["pages:comment"],
    });
    expect(operation("POST", "/api/v1/shares/workspace/members")?.security?.[0]).toEqual({ oauth2: ["pages:write"] });
  });

  it("declares the health checks public, under the operations tag", () => {
    for (const path of ["/healthz", "/readyz"]) {
      expect(operation("GET", path)?.security).toEqual([]);
      expect(operation("GET", path)?.tags).toEqual(["operations"]);
    }
  });

  it("describes the error answers of every API operation in the error shape, with the codes each status carries", () => {
    for (const { method, url } of apiRoutes().filter(({ url }) => url.startsWith("/api/v1/"))) {
      const responses = operation(method, openApiPath(url))?.responses ?? {};
      const errors = Object.entries(responses).filter(([status]) => /^4\d\d$/.test(status));
      expect(errors.length, `${method} ${url}`).toBeGreaterThan(0);
      for (const [status, response] of errors) {
        expect(response.content?.["application/json"]?.schema, `${method} ${url} ${status}`).toEqual({
          $ref: "#/components/schemas/Error",
        });
        expect(response.description, `${method} ${url} ${status}`).toMatch(/`[a-z_]+`/);
      }
      // Every operation but the public ones (an unsubscribe link's, authorised by its signed token) signs in.
      if ((operation(method, openApiPath(url))?.security ?? []).length > 0)
        expect(responses["401"]?.description, `${method} ${url}`).toContain("unauthenticated");
    }
    expect(operation("GET", "/api/v1/pages")?.responses["403"]?.description).toContain("insufficient_scope");
    expect(operation("POST", "/api/v1/tokens")?.responses["403"]?.description).toContain("forbidden");
    expect(operation("PATCH", "/api/v1/pages/{pageId}")?.responses["404"]?.description).toContain("not_found");
    expect(operation("PUT", "/api/v1/pages/{pageId}/content")?.responses["412"]?.description).toContain(
      "precondition_failed",
    );
    expect(document.components.schemas.Error?.properties?.error?.required).toEqual(["code", "message"]);
  });

  it("documents 429 rate_limited on every API operation, and on no health check", () => {
    for (const { method, url } of apiRoutes().filter(({ url }) => url.startsWith("/api/v1/"))) {
      expect(operation(method, openApiPath(url))?.responses["429"]?.description, `${method} ${url}`).toContain(
        "rate_limited",
      );
    }
    for (const path of ["/healthz", "/readyz", "/metrics"])
      expect(operation("GET", path)?.responses["429"], path).toBeUndefined();
  });

  it("shows an example request body for creating a page, a token and a member", () => {
    const example = (method: string, path: string) =>
      operation(method, path)?.requestBody?.content["application/json"] as { example?: unknown } | undefined;
    expect(example("POST", "/api/v1/pages")?.example).toEqual(expect.objectContaining({ title: expect.any(String) }));
    expect(example("POST", "/api/v1/tokens")?.example).toEqual(expect.objectContaining({ scopes: expect.any(Array) }));
    expect(example("POST", "/api/v1/shares/workspace/members")?.example).toEqual({
      email: expect.any(String),
      role: "viewer",
    });
  });

  it("derives its schemas from the zod schemas the routes validate with", () => {
    const resolveQuery = operation("GET", "/api/v1/pages/resolve")?.parameters ?? [];
    expect(resolveQuery.map((parameter) => `${parameter.in} ${parameter.name}`).sort()).toEqual([
      "header X-Consistency-Token",
      "query folderPath",
      "query title",
    ]);
    const tokenBody = operation("POST", "/api/v1/tokens")?.requestBody?.content["application/json"]?.schema as {
      properties: Record<string, { items?: { enum?: string[] } }>;
    };
    expect(tokenBody.properties.scopes?.items?.enum).toEqual(["pages:read", "pages:comment", "pages:write"]);
  });

  it("holds only schemas that compile as JSON Schema 2020-12", () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    for (const [name, schema] of Object.entries(document.components.schemas))
      ajv.addSchema(schema, `#/components/schemas/${name}`);
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, found] of Object.entries(methods)) {
        const schemas = [
          ...(found.parameters ?? []).map((parameter) => parameter.schema),
          ...Object.values(found.requestBody?.content ?? {}).map((media) => media.schema),
          ...Object.values(found.responses).flatMap((response) =>
            Object.values(response.content ?? {}).map((media) => media.schema),
          ),
        ];
        for (const schema of schemas) expect(() => ajv.compile(schema), `${method} ${path}`).not.toThrow();
      }
    }
  });

  it("names every operation with a unique operationId and declares every tag it uses", () => {
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
    const ids = operations.map((found) => found.operationId);
    expect(ids.every((id) => typeof id === "string" && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const declared = document.tags.map((tag) => tag.name);
    expect(operations.flatMap((found) => found.tags ?? []).filter((tag) => !declared.includes(tag))).toEqual([]);
  });

  it("gives each body the media type the server reads or answers: markdown, image bytes, an event stream", () => {
    expect(Object.keys(operation("GET", "/api/v1/pages/{pageId}/content")?.responses["200"]?.content ?? {})).toEqual([
      "text/markdown",
    ]);
    expect(Object.keys(operation("PUT", "/api/v1/pages/{pageId}/content")?.requestBody?.content ?? {})).toEqual([
      "text/markdown",
      "text/plain",
      "application/json",
    ]);
    expect(operation("POST", "/api/v1/imports/obsidian")?.requestBody?.content).toEqual({
      "application/json": expect.objectContaining({ schema: expect.objectContaining({ required: ["files"] }) }),
      "application/zip": { schema: { type: "string", contentMediaType: "application/zip" } },
    });
    expect(Object.keys(operation("GET", "/api/v1/images/{imageId}")?.responses["200"]?.content ?? {})).toEqual([
      "image/jpeg",
      "image/png",
      "image/gif",
      "image/webp",
    ]);
    expect(Object.keys(operation("GET", "/api/v1/changes")?.responses["200"]?.content ?? {})).toEqual([
      "text/event-stream",
    ]);
    expect(operation("GET", "/api/v1/changes")?.responses["200"]?.description).toContain("`change`");
  });

  it("documents the headers a call sends and answers", () => {
    const headerParameters = (method: string, path: string) =>
      (operation(method, path)?.parameters ?? [])
        .filter((parameter) => parameter.in === "header")
        .map((parameter) => `${parameter.name}${parameter.required ? " (required)" : ""}`);
    expect(headerParameters("PUT", "/api/v1/pages/{pageId}/content")).toEqual(["If-Match (required)"]);
    expect(headerParameters("GET", "/api/v1/pages/{pageId}/content")).toEqual(["If-None-Match", "X-Consistency-Token"]);
    expect(headerParameters("POST", "/api/v1/pages")).toEqual(["Idempotency-Key"]);
    expect(headerParameters("GET", "/api/v1/changes")).toEqual(["Last-Event-ID"]);
    const responseHeaders = (method: string, path: string, status: string) =>
      Object.keys(operation(method, path)?.responses[status]?.headers ?? {});
    expect(responseHeaders("GET", "/api/v1/pages/{pageId}/content", "200")).toEqual(["ETag"]);
    expect(responseHeaders("PUT", "/api/v1/pages/{pageId}/content", "200")).toEqual([
      "ETag",
      "Unreachable-Mentions",
      "X-Consistency-Token",
    ]);
    expect(responseHeaders("POST", "/api/v1/pages", "201")).toEqual([
      "X-Consistency-Token",
      "Idempotent-Replayed",
      "Location",
    ]);
    expect(responseHeaders("POST", "/api/v1/pages", "5XX")).toEqual(["Retry-After"]);
  });

  it("documents the share link's password form: a form body, a 303 with Location and Set-Cookie and no body, and its refusals", () => {
    const unlock = operation("POST", "/s/{secret}");
    const form = {
      type: "object",
      properties: { password: expect.objectContaining({ type: "string" }) },
      required: ["password"],
    };
    expect(unlock?.requestBody?.content["application/x-www-form-urlencoded"]?.schema).toEqual(
      expect.objectContaining(form),
    );
    expect(unlock?.requestBody?.content["application/json"]?.schema).toEqual(expect.objectContaining(form));
    const seeOther = unlock?.responses["303"];
    expect(seeOther?.content).toBeUndefined();
    expect(Object.keys(seeOther?.headers ?? {})).toEqual(["Location", "Set-Cookie"]);
    expect(seeOther?.headers?.Location).toEqual(expect.objectContaining({ required: true }));
    expect(Object.keys(unlock?.responses ?? {}).sort()).toEqual(["303", "400", "401", "404", "413", "415", "429"]);
    for (const status of ["401", "404"])
      expect(Object.keys(unlock?.responses[status]?.content ?? {}), status).toEqual(["text/html"]);
    for (const status of ["400", "413", "415"])
      expect(unlock?.responses[status]?.content, status).toEqual({
        "application/json": { schema: { $ref: "#/components/schemas/Error" } },
      });
    // Too many password guesses, or too many requests of any kind: a page saying so, as every public page answers.
    expect(unlock?.responses["429"]?.content).toEqual({ "text/html": { schema: { type: "string" } } });
    expect(operation("GET", "/s/{secret}")?.responses["429"]?.content).toEqual({
      "text/html": { schema: { type: "string" } },
    });
  });

  it("declares Location on every 201 but the vault import's (it makes no one resource), on their 202, and on an invitation's 202", () => {
    const located: string[] = [];
    const created: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, found] of Object.entries(item)) {
        const route = `${method.toUpperCase()} ${path}`;
        if (found.responses["201"]) created.push(route);
        if (found.responses["201"]?.headers?.Location) located.push(route);
        if (found.responses["201"])
          expect(Boolean(found.responses["202"]?.headers?.Location), `${route} 202`).toBe(
            Boolean(found.responses["201"].headers?.Location),
          );
      }
    }
    expect(created.filter((route) => !located.includes(route))).toEqual(["POST /api/v1/imports/obsidian"]);
    expect(located.sort()).toEqual([
      "POST /api/v1/folders",
      "POST /api/v1/folders/{folderId}/share-links",
      "POST /api/v1/groups",
      "POST /api/v1/pages",
      "POST /api/v1/pages/{pageId}/attachments",
      "POST /api/v1/pages/{pageId}/comments",
      "POST /api/v1/pages/{pageId}/comments/{threadId}/replies",
      "POST /api/v1/pages/{pageId}/duplicate",
      "POST /api/v1/pages/{pageId}/images",
      "POST /api/v1/pages/{pageId}/share-links",
      "POST /api/v1/tokens",
      "POST /api/v1/webhooks",
    ]);
    for (const path of [
      "/api/v1/shares/workspace/members",
      "/api/v1/shares/entity/{entityType}/{entityId}/grants",
      "/api/v1/groups/{groupId}/members",
    ]) {
      expect(operation("POST", path)?.responses["202"]?.headers?.Location?.description, path).toContain(
        "/api/v1/shares/invitations/{invitationId}",
      );
      expect(operation("POST", path)?.responses["200"]?.headers?.Location, path).toBeUndefined();
    }
    expect(operation("POST", "/api/v1/pages")?.responses["201"]?.headers?.Location).toEqual({
      description: expect.stringContaining("`/api/v1/pages/{pageId}`"),
      schema: { type: "string", format: "uri-reference" },
      required: true,
    });
  });

  it("types limit as an integer, and answers a write's 202 with the same body as its other success answer", () => {
    const limit = operation("GET", "/api/v1/pages")?.parameters?.find(
      (parameter) => parameter.name === "limit",
    )?.schema;
    expect(limit).toEqual(expect.objectContaining({ type: "integer", minimum: 1, maximum: 100 }));
    const bodyOf = (method: string, path: string, status: string) =>
      operation(method, path)?.responses[status]?.content;
    expect(bodyOf("POST", "/api/v1/pages", "202")).toEqual({
      "application/json": { schema: { $ref: "#/components/schemas/CreatedPage" } },
    });
    expect(bodyOf("POST", "/api/v1/pages", "202")).toEqual(bodyOf("POST", "/api/v1/pages", "201"));
    expect(bodyOf("POST", "/api/v1/webhooks", "202")).toEqual(bodyOf("POST", "/api/v1/webhooks", "201"));
    expect(bodyOf("PUT", "/api/v1/pages/{pageId}/content", "202")).toEqual(
      bodyOf("PUT", "/api/v1/pages/{pageId}/content", "200"),
    );
    expect(bodyOf("DELETE", "/api/v1/pages/{pageId}", "202")).toBeUndefined();
    expect(operation("POST", "/api/v1/pages")?.responses["202"]?.headers?.["X-Read-Side"]?.schema).toEqual({
      type: "string",
      enum: ["behind"],
    });
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, found] of Object.entries(methods)) {
        const successes = Object.entries(found.responses).filter(
          ([status]) => /^2\d\d$/.test(status) && status !== "204",
        );
        // The schema's own description is the status's ("OK", "Accepted: ..."): the type is the rest.
        const typeOf = (content: Record<string, { schema: object }> | undefined) =>
          JSON.stringify(
            Object.entries(content ?? {}).map(([media, { schema }]) => [media, { ...schema, description: undefined }]),
          );
        const bodies = new Set(successes.map(([, response]) => typeOf(response.content)));
        expect(
          bodies.size,
          `${method} ${path}: one body type for ${successes.map(([status]) => status).join(", ")}`,
        ).toBeLessThanOrEqual(1);
      }
    }
  });

  it("shows the change feed's events as the feed sends them: no email, changes an object, a notification as listed", () => {
    const stream = operation("GET", "/api/v1/changes")?.responses["200"]?.content?.["text/event-stream"] as
      { example?: string } | undefined;
    const events = [...(stream?.example ?? "").matchAll(/^event: (\w+)\ndata: (.*)$/gm)].map(([, name, data]) => ({
      name,
      data: JSON.parse(data ?? "") as unknown,
    }));
    expect(events.map((event) => event.name)).toEqual(["change", "notification"]);
    // Parsing keeps only what an event has: anything else in the example (an email) makes the two differ.
    for (const { name, data } of events)
      expect((name === "change" ? changeEvent : notificationEvent).parse(data)).toEqual(data);
  });

  it("names the records it answers in components.schemas, and refers to them", () => {
    const named = [
      "Page",
      "PageWithPath",
      "Folder",
      "CommentThread",
      "Comment",
      "Invitation",
      "WorkspaceMember",
      "Image",
      "ImportResult",
      "ApiToken",
      "Webhook",
      "WebhookDelivery",
      "HistoryEntry",
      "TrashItem",
      "SearchHit",
      "CurrentUser",
      "Attachment",
      "ShareLink",
      "Error",
    ];
    for (const name of named) expect(Object.keys(document.components.schemas), name).toContain(name);
    expect(Object.keys(document.components.schemas).filter((name) => name.endsWith("Input"))).toEqual([]);
    const text = JSON.stringify(document);
    for (const name of named) expect(text, name).toContain(`"#/components/schemas/${name}"`);
  });
});
