// A vault as the export answers it (a zip, read with fflate) and as the import takes it (`{files}`, or a zip), and
// a workspace as a user sees it, with ids replaced by what they name, so two workspaces can be compared.
import { createHash } from "node:crypto";
import { unzipSync } from "fflate";
import { expect } from "vitest";
import type { Client, Reply } from "./server.ts";

const SESSION_COOKIE = "app-auth.session_token";
/** Every file but a note is bytes: images and attachments alike. */
const BINARY = /^(?!.*\.md$)/i;

/** GET /exports/obsidian: its status, headers, the archive as it came and the archive's files. */
export async function exportVault(
  client: Client,
  folderId?: string,
): Promise<{ status: number; headers: Headers; bytes: Uint8Array; files: Map<string, Uint8Array>; text: string }> {
  const headers: Record<string, string> = {};
  if (client.credentials && "cookie" in client.credentials)
    headers.cookie = `${SESSION_COOKIE}=${client.credentials.cookie}`;
  if (client.credentials && "bearer" in client.credentials)
    headers.authorization = `Bearer ${client.credentials.bearer}`;
  const query = folderId === undefined ? "" : `?folderId=${folderId}`;
  const response = await fetch(`${client.baseUrl}/api/v1/exports/obsidian${query}`, { headers });
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (response.status !== 200)
    return {
      status: response.status,
      headers: response.headers,
      bytes,
      files: new Map(),
      text: Buffer.from(bytes).toString("utf8"),
    };
  return {
    status: response.status,
    headers: response.headers,
    bytes,
    files: new Map(Object.entries(unzipSync(bytes))),
    text: "",
  };
}

/** An exported vault's files as POST /imports/obsidian takes them: notes as text, other files as base64. */
export function asImportFiles(files: ReadonlyMap<string, Uint8Array>): Array<{ path: string; content: string }> {
  return [...files].map(([path, bytes]) => ({
    path,
    content: BINARY.test(path) ? Buffer.from(bytes).toString("base64") : Buffer.from(bytes).toString("utf8"),
  }));
}

/** POST /imports/obsidian with a zip as its body. */
export const importZip = (client: Client, zip: Uint8Array, headers: Record<string, string> = {}): Promise<Reply> =>
  client.call("POST", "/imports/obsidian", {
    body: new Uint8Array(zip),
    headers: { "content-type": "application/zip", ...headers },
  });

/** Each file's text (notes) or SHA-256 (other files), by path: what two exports are compared on. */
export function fileDigest(files: ReadonlyMap<string, Uint8Array>): Record<string, string> {
  return Object.fromEntries(
    [...files]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([path, bytes]) => [
        path,
        BINARY.test(path) ? createHash("sha256").update(bytes).digest("hex") : Buffer.from(bytes).toString("utf8"),
      ]),
  );
}

interface ListedPage {
  id: string;
  title: string;
  icon: string | null;
}

const SERVICE_LINE = /^(id|title|icon|parentId|folderPath|ownerId|createdAt|updatedAt): /;

/**
 * Every page the user owns as `{place, title, icon, content}`: content without the service's frontmatter lines,
 * page links naming the linked page's place and title, image URLs the SHA-256 of the bytes served.
 */
export async function workspaceSnapshot(
  user: Client,
): Promise<Array<{ place: string; icon: string | null; content: string }>> {
  const pages: ListedPage[] = [];
  for (let cursor: string | null = null; ;) {
    const reply = await user.get(`/pages?limit=100${cursor ? `&cursor=${cursor}` : ""}`);
    expect(reply.status, reply.text).toBe(200);
    pages.push(...(reply.body.data as ListedPage[]));
    cursor = (reply.body.nextCursor as string | null) ?? null;
    if (!cursor) break;
  }
  const places = new Map<string, string>();
  const documents = new Map<string, { icon: string | null; content: string }>();
  for (const page of pages) {
    const reply = await user.get(`/pages/${page.id}/content`);
    expect(reply.status, reply.text).toBe(200);
    const [, block = "", body = ""] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(reply.text) ?? [];
    const folderPath = /^folderPath: (.*)$/m.exec(block)?.[1] ?? '""';
    places.set(page.id, `${JSON.parse(folderPath) as string}/${page.title}`);
    const own = block.split("\n").filter((line) => !SERVICE_LINE.test(line));
    documents.set(page.id, {
      icon: page.icon,
      content: own.length > 0 ? `---\n${own.join("\n")}\n---\n${body}` : body,
    });
  }
  const imageDigests = new Map<string, string>();
  const snapshot: Array<{ place: string; icon: string | null; content: string }> = [];
  for (const [id, document] of documents) {
    let content = document.content.replace(
      /\/api\/v1\/pages\/([0-9a-f-]{36})/g,
      (_url, linked: string) => `page:${places.get(linked) ?? "outside"}`,
    );
    for (const [url, imageId = ""] of content.matchAll(/\/api\/v1\/images\/([0-9a-f-]{36})/g)) {
      if (!imageDigests.has(imageId)) {
        const response = await fetch(`${user.baseUrl}${url}`, {
          headers:
            user.credentials && "cookie" in user.credentials
              ? { cookie: `${SESSION_COOKIE}=${user.credentials.cookie}` }
              : {},
        });
        imageDigests.set(
          imageId,
          createHash("sha256")
            .update(new Uint8Array(await response.arrayBuffer()))
            .digest("hex"),
        );
      }
    }
    content = content.replace(
      /\/api\/v1\/images\/([0-9a-f-]{36})/g,
      (_url, imageId: string) => `image:${imageDigests.get(imageId) ?? "?"}`,
    );
    for (const [url, attachmentId = ""] of content.matchAll(/\/api\/v1\/attachments\/([0-9a-f-]{36})/g)) {
      if (!imageDigests.has(attachmentId)) {
        const response = await fetch(`${user.baseUrl}${url}`, {
          headers:
            user.credentials && "cookie" in user.credentials
              ? { cookie: `${SESSION_COOKIE}=${user.credentials.cookie}` }
              : {},
        });
        imageDigests.set(
          attachmentId,
          createHash("sha256")
            .update(new Uint8Array(await response.arrayBuffer()))
            .digest("hex"),
        );
      }
    }
    content = content.replace(
      /\/api\/v1\/attachments\/([0-9a-f-]{36})/g,
      (_url, attachmentId: string) => `attachment:${imageDigests.get(attachmentId) ?? "?"}`,
    );
    snapshot.push({ place: places.get(id) ?? "?", icon: document.icon, content });
  }
  return snapshot.sort((a, b) => (a.place < b.place ? -1 : a.place > b.place ? 1 : 0));
}
