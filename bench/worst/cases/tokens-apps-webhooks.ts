// Worst cases of what acts for a user: API tokens, authorized apps, and webhooks with their deliveries.
import { randomUUID } from "node:crypto";
import { get, idOf, json, many, send, type WorstCases } from "./worst-case.ts";

export const tokenAppWebhookCases: WorstCases = {
  "POST /api/v1/tokens": {
    input: "every scope",
    request: (w) =>
      send(w.stranger, "POST", "/tokens", {
        name: `t-${randomUUID()}`,
        scopes: ["pages:read", "pages:comment", "pages:write"],
      }),
  },
  "GET /api/v1/tokens": { input: "the caller's tokens", request: (w) => get(w.owner, "/tokens") },
  "DELETE /api/v1/tokens/{tokenId}": {
    input: "revoke a token",
    prepare: (w, n) =>
      many(n, async () =>
        idOf(
          (await json(w, w.stranger, "POST", "/tokens", { name: `r-${randomUUID()}`, scopes: ["pages:read"] })).body,
        ),
      ),
    request: (w, id) => send(w.stranger, "DELETE", `/tokens/${id}`),
  },
  "GET /api/v1/apps": { input: "the caller's authorized apps", request: (w) => get(w.owner, "/apps") },
  // Authorizing an app takes a person's consent in a browser, which the bench does not drive: the revocation is
  // measured on an app that is not the caller's (the app's stream read and refused), not an app's whole revocation.
  "DELETE /api/v1/apps/{appId}": {
    input: "an app that is not the caller's",
    expected: [404],
    request: (w) => send(w.stranger, "DELETE", `/apps/app-${randomUUID()}`),
  },
  "POST /api/v1/webhooks": {
    input: "every event, a folder filter",
    request: (w) =>
      send(w.stranger, "POST", "/webhooks", {
        url: `http://127.0.0.1:9/${randomUUID()}`,
        events: ["page.created", "page.updated", "page.deleted"],
      }),
  },
  "GET /api/v1/webhooks": { input: "50 webhooks (the quota)", request: (w) => get(w.owner, "/webhooks?limit=100") },
  "GET /api/v1/webhooks/{webhookId}": { input: "a webhook", request: (w) => get(w.owner, `/webhooks/${w.webhookId}`) },
  "PATCH /api/v1/webhooks/{webhookId}": {
    input: "change events and description",
    request: (w, _p, i) => send(w.owner, "PATCH", `/webhooks/${w.webhookId}`, { description: `changed ${i}` }),
  },
  "DELETE /api/v1/webhooks/{webhookId}": {
    input: "delete a webhook",
    prepare: (w, n) =>
      many(n, async () =>
        idOf(
          (
            await json(w, w.stranger, "POST", "/webhooks", {
              url: `http://127.0.0.1:9/${randomUUID()}`,
              events: ["page.created"],
            })
          ).body,
        ),
      ),
    request: (w, id) => send(w.stranger, "DELETE", `/webhooks/${id}`),
  },
  "GET /api/v1/webhooks/{webhookId}/deliveries": {
    input: "a webhook failing every delivery",
    request: (w) => get(w.owner, `/webhooks/${w.webhookId}/deliveries?limit=100`),
  },
  "POST /api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry": {
    input: "retry a failed delivery",
    prepare: async (w, n) => {
      const list = await json(w, w.owner, "GET", `/webhooks/${w.webhookId}/deliveries?limit=100`);
      const ids = (list.body.data as Array<{ id: string }>).map((d) => d.id);
      return Array.from({ length: n }, (_, i) => ids[i % Math.max(1, ids.length)] ?? randomUUID());
    },
    request: (w, id) => send(w.owner, "POST", `/webhooks/${w.webhookId}/deliveries/${id}/retry`),
  },
  "POST /api/v1/webhooks/{webhookId}/replay": {
    input: "the whole log after position 0, one webhook each (one replay per webhook at a time)",
    maxIterations: 3,
    prepare: async (w, n) =>
      ((await json(w, w.owner, "GET", "/webhooks?limit=100")).body.data as Array<{ id: string }>)
        .slice(0, n)
        .map((webhook) => webhook.id),
    request: (w, id) => send(w.owner, "POST", `/webhooks/${id}/replay`, { after: "0" }),
  },
};
