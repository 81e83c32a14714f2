// Worst cases of history: a page read at an instant of the longest history, its revisions, a diff, a restore,
// a folder's changes and the change feed from the start of the log.
import { jsonHeaders } from "../fixture/calls.ts";
import { etagOf, get, send, type WorstCases } from "./worst-case.ts";

export const historyCases: WorstCases = {
  "GET /api/v1/pages/{pageId}": {
    input: "?at= the middle of the longest history",
    request: (w) => get(w.owner, `/pages/${w.historyPageId}?at=${w.midRevision}`),
  },
  "GET /api/v1/pages/{pageId}/history": {
    input: "the longest history, limit 100",
    request: (w) => get(w.owner, `/pages/${w.historyPageId}/history?limit=100`),
  },
  "POST /api/v1/pages/{pageId}/restore": {
    input: "restore the longest history's middle",
    request: async (w) => ({
      ...send(w.owner, "POST", `/pages/${w.historyPageId}/restore`, { at: w.midRevision }),
      headers: { ...jsonHeaders(w.owner), "if-match": await etagOf(w, w.historyPageId) },
    }),
  },
  "GET /api/v1/changes": {
    input: "catch-up from position 0 over the whole log (read for 3 s)",
    maxIterations: 2,
    request: (w) => ({ ...get(w.owner, "/changes?after=0"), readForMs: 3_000 }),
  },
  "GET /api/v1/folders/{folderId}/history": {
    input: "a folder's changes",
    request: (w) => get(w.owner, `/folders/${w.folderId}/history?limit=100`),
  },
  "GET /api/v1/pages/{pageId}/diff": {
    input: "half the longest history: 2,000 lines, every one changed",
    request: (w) => get(w.owner, `/pages/${w.historyPageId}/diff?from=${w.midRevision}`),
  },
};
