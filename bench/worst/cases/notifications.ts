// Worst cases of watching and notifications: watches on the largest page and its folder, the settings, the
// notifications of every grant received, and unsubscribing.
import { get, send, type WorstCases } from "./worst-case.ts";

export const notificationCases: WorstCases = {
  "PUT /api/v1/pages/{pageId}/watch": {
    input: "watch the largest page",
    request: (w) => send(w.owner, "PUT", `/pages/${w.bigPageId}/watch`, {}),
  },
  "DELETE /api/v1/pages/{pageId}/watch": {
    input: "stop watching the largest page",
    request: (w) => send(w.owner, "DELETE", `/pages/${w.bigPageId}/watch`),
  },
  "GET /api/v1/pages/{pageId}/watch": {
    input: "the largest page, deepest in its folders",
    request: (w) => get(w.owner, `/pages/${w.bigPageId}/watch`),
  },
  "PUT /api/v1/folders/{folderId}/watch": {
    input: "watch the folder of the largest workspace",
    request: (w) => send(w.owner, "PUT", `/folders/${w.folderId}/watch`, {}),
  },
  "DELETE /api/v1/folders/{folderId}/watch": {
    input: "stop watching the folder",
    request: (w) => send(w.owner, "DELETE", `/folders/${w.folderId}/watch`),
  },
  "GET /api/v1/folders/{folderId}/watch": {
    input: "the folder of the largest workspace",
    request: (w) => get(w.owner, `/folders/${w.folderId}/watch`),
  },
  "GET /api/v1/me/notification-settings": {
    input: "a user's settings",
    request: (w) => get(w.owner, "/me/notification-settings"),
  },
  "PUT /api/v1/me/notification-settings": {
    input: "every setting changed",
    request: (w, _p, i) => send(w.owner, "PUT", "/me/notification-settings", { autoWatch: i % 2 === 0 }),
  },
  "GET /api/v1/notifications": {
    input:
      "the owner's notifications of every grant received (capped at 500 per user), unread only, limit 100, each page's access checked",
    request: (w) => get(w.owner, "/notifications?limit=100&unread=true"),
  },
  "POST /api/v1/notifications/read": {
    input: "every notification marked read at once",
    request: (w) => send(w.owner, "POST", "/notifications/read", { all: true }),
  },
  "GET /api/v1/notifications/unsubscribe": {
    input: "a 1,000-character token whose signature does not match (the HMAC is checked before anything is read)",
    expected: [404],
    request: () => ({ method: "GET", path: `/api/v1/notifications/unsubscribe?token=u1.${"a".repeat(994)}.b` }),
  },
  "POST /api/v1/notifications/unsubscribe": {
    input: "the one-click form with a 1,000-character token whose signature does not match",
    expected: [404],
    request: () => ({
      method: "POST",
      path: `/api/v1/notifications/unsubscribe?token=u1.${"a".repeat(994)}.b`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    }),
  },
};
