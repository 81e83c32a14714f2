// Worst cases of folders and the trash: folders of 200 pages moved, deleted, restored and purged.
import { randomUUID } from "node:crypto";
import type { Worst } from "../fixture.ts";
import { get, json, many, send, type WorstCases } from "./worst-case.ts";

/** A folder holding `pages` pages, made through one import. */
async function folderWithPages(w: Worst, pages: number): Promise<string> {
  const name = `Bulk ${randomUUID().slice(0, 8)}`;
  await json(w, w.owner, "POST", "/imports/obsidian", {
    files: Array.from({ length: pages }, (_, i) => ({
      path: `${name}/Note ${i}.md`,
      content: `# Note ${i}\n\n${"Text of the note. ".repeat(50)}`,
    })),
  });
  const folders = await json(w, w.owner, "GET", `/folders?limit=100`);
  const found = (folders.body.data as Array<{ id: string; name: string }>).find((f) => f.name === name);
  if (!found) throw new Error(`folder ${name} not found after its import`);
  return found.id;
}

/** A folder of `pages` pages, deleted recursively: in the trash with everything it holds. */
async function trashedFolderWithPages(w: Worst, pages: number): Promise<string> {
  const folderId = await folderWithPages(w, pages);
  await json(w, w.owner, "DELETE", `/folders/${folderId}?recursive=true`);
  return folderId;
}

export const folderTrashCases: WorstCases = {
  "GET /api/v1/trash": {
    input: "the trash after the deletions above",
    request: (w) => get(w.owner, "/trash?limit=100"),
  },
  "POST /api/v1/trash/{type}/{id}/restore": {
    input: "restore a folder of 200 pages",
    maxIterations: 3,
    prepare: (w, n) => many(n, () => trashedFolderWithPages(w, 200)),
    request: (w, id) => send(w.owner, "POST", `/trash/folder/${id}/restore`),
  },
  "DELETE /api/v1/trash/{type}/{id}": {
    input: "purge a folder of 200 pages (each key destroyed, each page purged)",
    maxIterations: 3,
    prepare: (w, n) => many(n, () => trashedFolderWithPages(w, 200)),
    request: (w, id) => send(w.owner, "DELETE", `/trash/folder/${id}`),
  },
  "GET /api/v1/folders": {
    input: "the largest workspace's folders, limit 100",
    request: (w) => get(w.owner, "/folders?limit=100"),
  },
  "GET /api/v1/folders/{folderId}": { input: "a folder", request: (w) => get(w.owner, `/folders/${w.folderId}`) },
  "PATCH /api/v1/folders/{folderId}": {
    input: "rename a folder",
    request: (w, _p, i) => send(w.owner, "PATCH", `/folders/${w.folderId}`, { name: `Worst case ${i}` }),
  },
  "POST /api/v1/folders/{folderId}/move": {
    input: "move a folder of 200 pages",
    maxIterations: 3,
    prepare: (w, n) => many(n, () => folderWithPages(w, 200)),
    request: (w, id) => send(w.owner, "POST", `/folders/${id}/move`, { parentId: w.folderId }),
  },
  "DELETE /api/v1/folders/{folderId}": {
    input: "delete a folder of 200 pages, recursively",
    maxIterations: 3,
    prepare: (w, n) => many(n, () => folderWithPages(w, 200)),
    request: (w, id) => send(w.owner, "DELETE", `/folders/${id}?recursive=true`),
  },
  "POST /api/v1/folders": {
    input: "a folder with the longest name",
    request: (w, _p, i) => send(w.owner, "POST", "/folders", { name: `${i} ${"f".repeat(190)}`, parentId: w.folderId }),
  },
};
