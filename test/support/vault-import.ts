// What the vault-import tests share: the call, and reading back what an import made as its owner sees it.
import { expect } from "vitest";
import type { Client, Reply } from "./server.ts";

export interface ImportResult {
  foldersCreated: number;
  pagesCreated: number;
  imagesUploaded: number;
  attachmentsUploaded: number;
  backlinksCreated: number;
  errors: string[];
}
export type ImportedPage = {
  id: string;
  title: string;
  icon: string | null;
  parentId: string | null;
  folderPath: string;
};

export const importVault = (
  client: Client,
  files: Array<{ path: string; content: string }>,
  headers: Record<string, string> = {},
): Promise<Reply> => client.call("POST", "/imports/obsidian", { json: { files }, headers });

export async function resolve(user: Client, title: string): Promise<ImportedPage[]> {
  const reply = await user.get(`/pages/resolve?title=${encodeURIComponent(title)}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data as ImportedPage[];
}

export async function contentOf(user: Client, title: string): Promise<string> {
  const [page] = await resolve(user, title);
  if (!page) throw new Error(`no page titled ${title}`);
  const reply = await user.get(`/pages/${page.id}/content`);
  // The page's own record comes first in the frontmatter, the note's own keys after it: without the record's
  // lines, what is left is the stored markdown.
  const [, block = "", body = reply.text] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(reply.text) ?? [];
  const own = block
    .split("\n")
    .filter((line) => !/^(id|title|icon|parentId|folderPath|ownerId|createdAt|updatedAt): /.test(line));
  return own.length > 0 ? `---\n${own.join("\n")}\n---\n${body}` : body;
}
