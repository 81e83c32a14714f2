// Worst cases of share links and the public pages they serve under /s/.
import { costliestMarkdown, PAGE_MAX_CHARS } from "../fixture/pages.ts";
import { ATTACHMENT_BYTES, uploadedAttachment } from "./images-and-attachments.ts";
import { get, idOf, json, many, repeated, send, type WorstCases } from "./worst-case.ts";

/** A created share link's public path, from the url in its creation answer. */
function publicPath(body: Record<string, unknown>): string {
  return new URL(String(body.url), "http://bench.invalid").pathname;
}

export const shareLinkCases: WorstCases = {
  "POST /api/v1/pages/{pageId}/share-links": {
    input: "a 200-character password (scrypt)",
    request: (w) => send(w.owner, "POST", `/pages/${w.bigPageId}/share-links`, { password: "p".repeat(200) }),
  },
  "POST /api/v1/folders/{folderId}/share-links": {
    input: "a 200-character password (scrypt)",
    request: (w) => send(w.owner, "POST", `/folders/${w.folderId}/share-links`, { password: "p".repeat(200) }),
  },
  "GET /api/v1/share-links": {
    input: "the caller's links, limit 100",
    request: (w) => get(w.owner, "/share-links?limit=100"),
  },
  "GET /api/v1/share-links/{linkId}": {
    input: "a link",
    prepare: async (w, n) =>
      repeated(n, idOf((await json(w, w.owner, "POST", `/pages/${w.bigPageId}/share-links`, {})).body)),
    request: (w, id) => get(w.owner, `/share-links/${id}`),
  },
  "PATCH /api/v1/share-links/{linkId}": {
    input: "a new 200-character password (scrypt)",
    prepare: async (w, n) =>
      repeated(n, idOf((await json(w, w.owner, "POST", `/pages/${w.bigPageId}/share-links`, {})).body)),
    request: (w, id, i) => send(w.owner, "PATCH", `/share-links/${id}`, { password: `${"p".repeat(190)}${i}` }),
  },
  "DELETE /api/v1/share-links/{linkId}": {
    input: "revoke a link",
    prepare: (w, n) =>
      many(n, async () => idOf((await json(w, w.owner, "POST", `/pages/${w.bigPageId}/share-links`, {})).body)),
    request: (w, id) => send(w.owner, "DELETE", `/share-links/${id}`),
  },
  "GET /s/{secret}": {
    input: `the largest page (${PAGE_MAX_CHARS} characters of unclosed link brackets) rendered to HTML`,
    maxIterations: 3,
    prepare: async (w, n) =>
      repeated(n, publicPath((await json(w, w.owner, "POST", `/pages/${w.bigPageId}/share-links`, {})).body)),
    request: (_w, path) => ({ method: "GET", path }),
  },
  "POST /s/{secret}": {
    input: "a wrong 200-character password (scrypt)",
    expected: [401],
    prepare: (w, n) =>
      many(n, async () =>
        publicPath((await json(w, w.owner, "POST", `/pages/${w.bigPageId}/share-links`, { password: "right" })).body),
      ),
    request: (_w, path) => ({
      method: "POST",
      path,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `password=${"p".repeat(200)}`,
    }),
  },
  "GET /s/{secret}/pages/{pageId}": {
    input: "the largest page through a folder link, the folder's pages listed beside it",
    prepare: async (w, n) => {
      const pageId = idOf(
        (
          await json(w, w.owner, "POST", "/pages", {
            title: "Largest shared",
            markdown: costliestMarkdown(w.sizes.bigPageChars),
            parentId: w.folderId,
          })
        ).body,
      );
      return repeated(
        n,
        `${publicPath((await json(w, w.owner, "POST", `/folders/${w.folderId}/share-links`, {})).body)}/pages/${pageId}`,
      );
    },
    request: (_w, path) => ({ method: "GET", path }),
  },
  "GET /s/{secret}/images/{imageId}": {
    input: "the largest image through a page link",
    prepare: async (w, n) =>
      repeated(n, publicPath((await json(w, w.owner, "POST", `/pages/${w.bigPageId}/share-links`, {})).body)),
    request: (w, path) => ({ method: "GET", path: `${path}/images/${w.imageId}` }),
  },
  "GET /s/{secret}/attachments/{attachmentId}": {
    input: "a 50 MB attachment's bytes through a page link",
    maxIterations: 3,
    prepare: async (w, n) => {
      const attachmentId = await uploadedAttachment(w, ATTACHMENT_BYTES);
      return repeated(
        n,
        `${publicPath((await json(w, w.owner, "POST", `/pages/${w.bigPageId}/share-links`, {})).body)}/attachments/${attachmentId}`,
      );
    },
    request: (_w, path) => ({ method: "GET", path }),
  },
};
