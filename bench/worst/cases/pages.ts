// Worst cases of pages: listing, creating, reading, renaming, moving, replacing, duplicating and deleting
// the largest page of the fixture, and its backlinks.
import { randomUUID } from "node:crypto";
import { jsonHeaders } from "../fixture/calls.ts";
import { costliestMarkdown, PAGE_MAX_CHARS } from "../fixture/pages.ts";
import { api, etagOf, get, idOf, json, many, send, type WorstCases } from "./worst-case.ts";

export const pageCases: WorstCases = {
  "GET /api/v1/templates": {
    input: "the largest workspace, grants received, limit 100",
    request: (w) => get(w.owner, "/templates?limit=100"),
  },
  "GET /api/v1/pages": {
    input: "the largest workspace, grants received, limit 100",
    request: (w) => get(w.owner, "/pages?limit=100"),
  },
  "POST /api/v1/pages": {
    input: `${PAGE_MAX_CHARS} characters of unclosed link brackets`,
    request: (w) =>
      send(w.owner, "POST", "/pages", {
        title: `Largest ${randomUUID()}`,
        markdown: costliestMarkdown(w.sizes.bigPageChars),
      }),
  },
  "GET /api/v1/pages/resolve": {
    input: "a title among the largest workspace",
    request: (w) => get(w.owner, `/pages/resolve?title=${encodeURIComponent(w.sampleTitle)}`),
  },
  "PATCH /api/v1/pages/{pageId}": {
    input: "rename the largest page",
    request: (w, _p, i) =>
      send(w.owner, "PATCH", `/pages/${w.bigPageId}`, { title: `Largest page ${i} ${"x".repeat(150)}` }),
  },
  "DELETE /api/v1/pages/{pageId}": {
    input: "delete a page of the largest size",
    prepare: (w, n) =>
      many(n, async (i) =>
        idOf(
          (
            await json(w, w.owner, "POST", "/pages", {
              title: `Doomed ${i}`,
              markdown: costliestMarkdown(w.sizes.bigPageChars),
            })
          ).body,
        ),
      ),
    request: (w, id) => send(w.owner, "DELETE", `/pages/${id}`),
  },
  "GET /api/v1/pages/{pageId}/content": {
    input: "the largest page",
    request: (w) => get(w.owner, `/pages/${w.bigPageId}/content`),
  },
  "POST /api/v1/pages/{pageId}/move": {
    input: "the largest page, in and out of a folder",
    request: (w, _p, i) =>
      send(w.owner, "POST", `/pages/${w.bigPageId}/move`, { parentId: i % 2 === 0 ? null : w.folderId }),
  },
  "PUT /api/v1/pages/{pageId}/content": {
    input:
      "replace the largest page, watched by the fixture's watchers (the fan-out's cap), with another of the costliest markdown",
    request: async (w, _p, i) => ({
      method: "PUT",
      path: api(`/pages/${w.bigPageId}/content`),
      headers: { ...jsonHeaders(w.owner), "if-match": await etagOf(w, w.bigPageId) },
      body: JSON.stringify({ markdown: `${costliestMarkdown(w.sizes.bigPageChars - 10)}${i}` }),
    }),
  },
  "PATCH /api/v1/pages/{pageId}/content": {
    input: "append to the longest history's page",
    request: (w, _p, i) => send(w.owner, "PATCH", `/pages/${w.historyPageId}/content`, { append: `\nappended ${i}` }),
  },
  "POST /api/v1/pages/{pageId}/duplicate": {
    input: "the largest page with its images",
    maxIterations: 3,
    request: (w, _p, i) => send(w.owner, "POST", `/pages/${w.bigPageId}/duplicate`, { title: `Copy ${i}` }),
  },
  "GET /api/v1/pages/{pageId}/backlinks": {
    input: "a page linked from thousands of pages the caller cannot see",
    request: (w) => get(w.owner, `/pages/${w.linkedPageId}/backlinks?limit=100`),
  },
};
