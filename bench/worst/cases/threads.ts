// Worst cases of comment threads on the largest page of the fixture.
import { get, json, many, send, type WorstCases } from "./worst-case.ts";

export const threadCases: WorstCases = {
  "GET /api/v1/pages/{pageId}/comments": {
    input: "every thread of the largest page",
    request: (w) => get(w.owner, `/pages/${w.bigPageId}/comments?limit=100`),
  },
  "POST /api/v1/pages/{pageId}/comments": {
    input: "a quote anchored in the largest page, mentioning 200 people who can view it (each notified)",
    request: (w, _p, i) =>
      send(w.owner, "POST", `/pages/${w.bigPageId}/comments`, {
        // 200 mentions of 49 characters: within the 10,000 characters a comment holds.
        body: `Question ${i} ${w.mentionedIds.map((id) => `[@](mention:${id})`).join("")}`,
        anchor: { quote: "[x]".repeat(600), prefix: "[x]".repeat(160), suffix: "" },
      }),
  },
  "POST /api/v1/pages/{pageId}/comments/{threadId}/replies": {
    input: "a reply of the longest body",
    request: (w) =>
      send(w.owner, "POST", `/pages/${w.bigPageId}/comments/${w.threadId}/replies`, { body: "r".repeat(10_000) }),
  },
  "PATCH /api/v1/pages/{pageId}/comments/{threadId}/status": {
    input: "resolve and reopen",
    request: (w, _p, i) =>
      send(w.owner, "PATCH", `/pages/${w.bigPageId}/comments/${w.threadId}/status`, {
        status: i % 2 === 0 ? "resolved" : "open",
      }),
  },
  "PATCH /api/v1/pages/{pageId}/comments/{commentId}": {
    input: "edit to the longest body",
    request: (w, _p, i) =>
      send(w.owner, "PATCH", `/pages/${w.bigPageId}/comments/${w.commentId}`, { body: `${i}${"e".repeat(9_990)}` }),
  },
  "DELETE /api/v1/pages/{pageId}/comments/{commentId}": {
    input: "delete a reply",
    prepare: (w, n) =>
      many(n, async () => {
        const reply = await json(w, w.owner, "POST", `/pages/${w.bigPageId}/comments/${w.threadId}/replies`, {
          body: "to delete",
        });
        const comments = (reply.body.thread as { comments: Array<{ id: string }> }).comments;
        return comments.at(-1)?.id ?? "";
      }),
    request: (w, id) => send(w.owner, "DELETE", `/pages/${w.bigPageId}/comments/${id}`),
  },
};
