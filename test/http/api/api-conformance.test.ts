// The API reference and the server agree: every operation of the served document is called (through the typed
// client, and with the requests that provoke each answer it documents: errors, conditions, limits, a lagging read
// side; test/support/conformance/), and every answer's status, content type, headers and body are checked against
// the document by openapi-backend's response validator. A documented (operation, status) pair no request here
// provokes fails "calls every operation", naming it, unless it is listed with the reason no test can.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Document } from "openapi-backend";
import { mintSession, SESSION_COOKIE } from "../../../shared/auth/session-verifier.ts";
import { createWorkspaceClient, type WorkspaceClient } from "../../../client/index.ts";
import { conditionalRequests } from "../../support/conformance/conditional-requests.ts";
import { conflicts } from "../../support/conformance/conflicts.ts";
import { coverageOf } from "../../support/conformance/coverage.ts";
import { documentedOperations, filled } from "../../support/conformance/documented.ts";
import { whileTheReadSideLags } from "../../support/conformance/lagging-read-side.ts";
import { refusedBodies } from "../../support/conformance/refused-bodies.ts";
import { Prober } from "../../support/conformance/probe.ts";
import { notificationUnsubscribe } from "../../support/conformance/notification-unsubscribe.ts";
import { publicPages } from "../../support/conformance/public-pages.ts";
import { ONE_AN_HOUR, rateLimited } from "../../support/conformance/rate-limits.ts";
import { readinessWithTheReadStoreDown } from "../../support/conformance/store-down.ts";
import { ONE_TASK_EACH, tooManyTasks } from "../../support/conformance/too-many-tasks.ts";
import { callEveryOperation } from "../../support/every-operation.ts";
import { authorizedApp } from "../../support/oauth-flow.ts";
import { makeImage } from "../../support/images.ts";
import { ResponseConformance } from "../../support/openapi-conformance.ts";
import { TEST_SESSION_SECRET, TestServer } from "../../support/server.ts";
import { WebhookReceiver } from "../../support/webhook-receiver.ts";
import { TestOpenIdProvider } from "../../support/oidc-provider.ts";
import { signingIn } from "../../support/conformance/sign-in.ts";

/** The limits of the server under test, low enough that a probe reaches each in a few small requests. */
const LIMITS = {
  BODY_LIMIT_BYTES: 16 * 1024,
  ATTACHMENT_MAX_BYTES: 640 * 1024,
  IMPORT_ZIP_MAX_BYTES: 64 * 1024,
  QUOTA_BLOB_BYTES_PER_OWNER: 1024 * 1024,
  QUOTA_TOKENS_PER_USER: 5,
  WEBHOOKS_PER_USER: 3,
};

let server: TestServer;
let receiver: WebhookReceiver;
let conformance: ResponseConformance;
let document: Document;
let prober: Prober;
/** The OpenID provider people sign in through, so that /auth/login and /auth/callback are served and documented. */
let provider: TestOpenIdProvider;

beforeAll(async () => {
  provider = await TestOpenIdProvider.listen();
  const oidc = {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
  };
  // A short consistency wait, so a paused projector makes writes answer 202 quickly; limits low enough to reach.
  const settings = Object.fromEntries(Object.entries(LIMITS).map(([name, value]) => [name, String(value)]));
  server = await TestServer.start({
    settings: { ...settings, ...oidc, WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true", CONSISTENCY_WAIT_MS: "300" },
  });
  provider.serve([`${server.url}/auth/callback`]);
  receiver = await WebhookReceiver.start();
  const reply = await server.anonymous().get("/api/v1/openapi.json");
  document = JSON.parse(reply.text);
  conformance = await ResponseConformance.of(document);
  prober = new Prober(server.url, conformance);
}, 30_000);
afterAll(async () => {
  await receiver.stop();
  await server.stop();
  await provider.stop();
});

async function sessionOf(name: string): Promise<{ cookie: string; client: WorkspaceClient }> {
  const cookie = `${SESSION_COOKIE}=${await mintSession(TEST_SESSION_SECRET, { sub: crypto.randomUUID(), email: `${name}-${crypto.randomUUID()}@example.com`, name })}`;
  return { cookie, client: checked(createWorkspaceClient({ baseUrl: server.url, headers: { cookie } })) };
}

function checked(client: WorkspaceClient): WorkspaceClient {
  client.use(conformance.middleware());
  return client;
}

describe("the API reference and the server", () => {
  it("agree on every answer of every operation a script of the typed client calls", async () => {
    const ann = await sessionOf("ann");
    const bob = await sessionOf("bob");
    const png = new Blob([new Uint8Array(await makeImage("png"))], { type: "image/png" });
    await callEveryOperation({
      browser: ann.client,
      bob: bob.client,
      withToken: (token) => checked(createWorkspaceClient({ baseUrl: server.url, token })),
      receiverUrl: receiver.url,
      png,
    });
    expect(conformance.problems).toEqual([]);
  }, 90_000);

  it("agree on signing in and out: through the OpenID provider (302, 303, 503 while it is down), a one-time link, and their refusals", async () => {
    await signingIn({ prober, provider, server });
    expect(conformance.problems).toEqual([]);
  }, 60_000);

  it("agree on the 202 of writes the read side has not caught up with: the same body, and X-Read-Side", async () => {
    const ann = await sessionOf("ann");
    const token =
      (
        await ann.client.POST("/api/v1/tokens", {
          body: { name: "lagging", scopes: ["pages:read", "pages:comment", "pages:write"] },
        })
      ).data?.token ?? "";
    const api = checked(createWorkspaceClient({ baseUrl: server.url, token }));
    const page = (await api.POST("/api/v1/pages", { body: { title: "Before", markdown: "some words" } })).data;
    const folder = (await api.POST("/api/v1/folders", { body: { name: "Before" } })).data;
    if (!page || !folder) throw new Error("setup failed");
    await server.internals.projector.stop();
    try {
      const created = await api.POST("/api/v1/pages", { body: { title: "Lagging" } });
      expect(created.response.status).toBe(202);
      expect(created.data?.title).toBe("Lagging");
      expect(created.response.headers.get("x-read-side")).toBe("behind");
      expect(
        (
          await api.PATCH("/api/v1/folders/{folderId}", {
            params: { path: { folderId: folder.id } },
            body: { name: "After" },
          })
        ).data?.name,
      ).toBe("After");
      const written = await api.PUT("/api/v1/pages/{pageId}/content", {
        params: { path: { pageId: page.id }, header: { "If-Match": "*" } },
        body: { markdown: "new words" },
        parseAs: "text",
      });
      expect(written.response.status).toBe(202);
      expect(written.data?.endsWith("new words")).toBe(true);
      expect(
        (
          await api.POST("/api/v1/pages/{pageId}/comments", {
            params: { path: { pageId: page.id } },
            body: { body: "why?", anchor: { quote: "words" } },
          })
        ).response.status,
      ).toBe(202);
      expect(
        (await api.DELETE("/api/v1/folders/{folderId}", { params: { path: { folderId: folder.id } } })).response.status,
      ).toBe(202);
    } finally {
      await server.internals.projector.start();
    }
    expect(conformance.problems).toEqual([]);
  }, 60_000);

  it("agree on the replay of an answer too large to keep under its Idempotency-Key: the record again, with its id", async () => {
    const ann = await sessionOf("ann");
    const token =
      (
        await ann.client.POST("/api/v1/tokens", {
          body: { name: "long thread", scopes: ["pages:read", "pages:comment", "pages:write"] },
        })
      ).data?.token ?? "";
    const api = checked(createWorkspaceClient({ baseUrl: server.url, token }));
    const page = (await api.POST("/api/v1/pages", { body: { title: "Debate", markdown: "a point to argue" } })).data;
    if (!page) throw new Error("no page");
    const opened = (
      await api.POST("/api/v1/pages/{pageId}/comments", {
        params: { path: { pageId: page.id } },
        body: { body: "Really?", anchor: { quote: "point" } },
      })
    ).data;
    if (!opened) throw new Error("no thread");
    const path = { pageId: page.id, threadId: opened.thread.id };
    // A reply answers the whole thread: 40 replies of 5,000 three-byte characters (each within the 16 KiB body
    // limit) make it over 512 KiB.
    for (let reply = 0; reply < 40; reply += 1) {
      const added = await api.POST("/api/v1/pages/{pageId}/comments/{threadId}/replies", {
        params: { path },
        body: { body: "€".repeat(5_000) },
      });
      expect(added.response.status).toBe(201);
    }
    const replyOnce = {
      params: { path, header: { "Idempotency-Key": crypto.randomUUID() } },
      body: { body: "The last word." },
    };

    const first = await api.POST("/api/v1/pages/{pageId}/comments/{threadId}/replies", replyOnce);
    expect(first.response.status).toBe(201);
    expect(Buffer.byteLength(JSON.stringify(first.data))).toBeGreaterThan(512 * 1024);
    const again = await api.POST("/api/v1/pages/{pageId}/comments/{threadId}/replies", replyOnce);
    expect(again.response.status).toBe(201);
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    expect(again.response.headers.get("location")).toBe(first.response.headers.get("location"));
    expect(again.response.headers.get("x-consistency-token")).toBe(first.response.headers.get("x-consistency-token"));
    expect(again.data?.thread.id).toBe(opened.thread.id);
    expect(again.data?.thread.comments.map((comment) => comment.id)).toEqual(
      first.data?.thread.comments.map((comment) => comment.id),
    );
    expect(again.data?.thread.comments.at(-1)?.body).toBe("The last word.");
    expect(conformance.problems).toEqual([]);
  }, 60_000);

  it("agree on the errors every operation answers: 401 without credentials, 400 for a malformed request, 403 without the scope, 404 for what is not there", async () => {
    const ann = await sessionOf("ann");
    const readOnly =
      (await ann.client.POST("/api/v1/tokens", { body: { name: "read only", scopes: ["pages:read"] } })).data?.token ??
      "";
    // No scope implies another: a token that may comment cannot read, one that may read cannot comment or write.
    const commentOnly =
      (await ann.client.POST("/api/v1/tokens", { body: { name: "comment only", scopes: ["pages:comment"] } })).data
        ?.token ?? "";
    const session = { cookie: ann.cookie };
    const probe = (method: string, path: string, sent: { headers?: Record<string, string>; body?: string }) =>
      prober.send(method, path, {
        headers: { ...(sent.body === undefined ? {} : { "content-type": "application/json" }), ...sent.headers },
        ...(sent.body === undefined ? {} : { body: sent.body }),
      });
    for (const operation of documentedOperations(conformance).filter(({ secured }) => secured)) {
      const { method, path, example } = operation;
      const body = method === "GET" || method === "DELETE" ? undefined : JSON.stringify(example ?? {});
      await probe(method, filled(operation), { ...(body === undefined ? {} : { body }) });
      if (path.includes("{"))
        await probe(method, path.replace(/\{[A-Za-z]+\}/g, "not-an-id"), {
          headers: session,
          ...(body === undefined ? {} : { body }),
        });
      else if (method === "GET")
        await probe(method, path, { headers: { ...session, "x-consistency-token": "not-a-position" } });
      else await probe(method, path, { headers: session, body: "[]" });
      if (operation.sessionOnly || operation.scope !== null) {
        const lacking = operation.scope === "pages:read" ? commentOnly : readOnly;
        await probe(method, filled(operation), {
          headers: { authorization: `Bearer ${lacking}` },
          ...(body === undefined ? {} : { body }),
        });
      }
      if (/\{([A-Za-z]*[iI]d|email)\}/.test(path))
        await probe(method, filled(operation), { headers: session, ...(body === undefined ? {} : { body }) });
    }
    // An id in the query rather than the path: the folder an import goes into, when it is not there.
    const intoNoFolder = await prober.send("POST", `/api/v1/imports/obsidian?folderId=${crypto.randomUUID()}`, {
      headers: session,
      json: { files: [{ path: "Note.md", content: "words" }] },
    });
    expect(intoNoFolder.status).toBe(404);
    // A workspace named in the query: the audit trail of one the caller does not manage, or that does not exist.
    const noTrail = await prober.send("GET", `/api/v1/audit?workspaceId=${crypto.randomUUID()}`, { headers: session });
    expect(noTrail.status).toBe(404);
    expect(conformance.problems).toEqual([]);
  }, 90_000);

  it("agree on what every operation answers while the read side lags: 202 behind for writes, 503 for a read waiting and for a session not yet readable", async () => {
    await whileTheReadSideLags({ server, prober, conformance, receiverUrl: receiver.url });
    expect(conformance.problems).toEqual([]);
  }, 60_000);

  it("agree on the refusal of a body over its limit (413) and of a media type an operation does not read (415)", async () => {
    await refusedBodies({ prober, conformance, limits: LIMITS });
    expect(conformance.problems).toEqual([]);
  }, 60_000);

  it("agree on conflicts (409: a changed session address, quotas, folder and comment rules) and on requests that cannot be processed (422)", async () => {
    await conflicts({ prober, conformance, limits: LIMITS, receiverUrl: receiver.url });
    expect(conformance.problems).toEqual([]);
  }, 60_000);

  it("agree on conditional and ranged requests: 428 and 412 for writes, 304 for bytes held, 206 and 416 for ranges", async () => {
    await conditionalRequests(prober);
    expect(conformance.problems).toEqual([]);
  }, 30_000);

  it("agree on the public pages of a share link: its password asked (401), given (303) or refused, and no link (404)", async () => {
    await publicPages(prober);
    await notificationUnsubscribe(prober);
    expect(conformance.problems).toEqual([]);
  }, 30_000);

  it("agree on 429 once a budget is spent, and on /readyz with the read store down, on a server that allows one request an hour", async () => {
    const limited = await TestServer.start({
      settings: {
        ...ONE_AN_HOUR,
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: provider.clientId,
        OIDC_CLIENT_SECRET: provider.clientSecret,
      },
    });
    try {
      const limitedProber = new Prober(limited.url, conformance);
      await rateLimited({ prober: limitedProber, conformance });
      await readinessWithTheReadStoreDown({ server: limited, prober: limitedProber });
    } finally {
      await limited.stop();
    }
    expect(conformance.problems).toEqual([]);
  }, 60_000);

  it("agree on the apps a user authorized through OAuth: listed, then revoked", async () => {
    const owner = await server.registered("app-owner");
    await authorizedApp(server.url, owner, ["pages:read"]);
    const cookie = owner.credentials && "cookie" in owner.credentials ? owner.credentials.cookie : "";
    const client = checked(
      createWorkspaceClient({ baseUrl: server.url, headers: { cookie: `${SESSION_COOKIE}=${cookie}` } }),
    );
    const listed = await client.GET("/api/v1/apps");
    const appId = listed.data?.data[0]?.id ?? "";
    expect((await client.DELETE("/api/v1/apps/{appId}", { params: { path: { appId } } })).response.status).toBe(204);
    expect(conformance.problems).toEqual([]);
  });

  it("agree on 429 too_many_tasks for a caller past its share of the worker pool, on a server where a caller holds one task at once", async () => {
    const busy = await TestServer.start({ settings: ONE_TASK_EACH });
    try {
      await tooManyTasks(new Prober(busy.url, conformance));
    } finally {
      await busy.stop();
    }
    expect(conformance.problems).toEqual([]);
  }, 60_000);

  it("calls every operation of the document, with each answer a test can provoke", () => {
    // A pair listed here was never answered: provoke it with a probe (test/support/conformance/), or, if no test
    // can, list it in UNPROVOKABLE (test/support/conformance/coverage.ts) with the reason.
    const { missing, provoked } = coverageOf(conformance);
    expect(missing).toEqual([]);
    expect(provoked, "listed as unprovokable, but answered").toEqual([]);
  });
});
