// The worst case within the documented limits, built through the public API of a fresh server: the largest page
// of the costliest markdown, a large workspace, the longest history, the most links to one page, the most
// webhooks, tokens and grants one user may hold. Every row of the worst-case table runs against it.
import { randomUUID } from "node:crypto";
import { mintSession } from "../../shared/auth/session-verifier.ts";
import type { Child } from "../processes.ts";

export interface WorstSizes {
  /** Pages in the owner's workspace (besides the ones below). */
  readonly pages: number;
  /** Pages of another user linking to one of the owner's pages, none visible to the owner. */
  readonly hiddenLinkers: number;
  /** Content replacements of the page with the longest history (2,000 lines each). */
  readonly revisions: number;
  /** Direct page grants the owner received from another user. */
  readonly grantsReceived: number;
  /** Comment threads on the largest page. */
  readonly threads: number;
  /** Characters of the largest page: the documented limit, smaller only to try the harness itself. */
  readonly bigPageChars: number;
  /** Pages of the one folder a grant fans out to (the per-user listing gains a row per page). */
  readonly folderPages: number;
  /**
   * People watching the largest page (half of them through its folder), each able to view it: more than one
   * event notifies (MAX_RECIPIENTS_PER_EVENT), so the fan-out's cap is what is measured.
   */
  readonly watchers: number;
}

/** Folders of the workspace a group holds grants on: adding a member lists every page below them. */
export const GROUP_FOLDERS = 50;

/** The documented largest page: 500,000 characters. */
export const PAGE_MAX_CHARS = 500_000;

export const QUICK_SIZES: WorstSizes = {
  pages: 2_000,
  hiddenLinkers: 1_000,
  revisions: 30,
  grantsReceived: 300,
  threads: 100,
  bigPageChars: PAGE_MAX_CHARS,
  folderPages: 2_000,
  watchers: 1_200,
};
export const FULL_SIZES: WorstSizes = {
  pages: 10_000,
  hiddenLinkers: 4_000,
  revisions: 100,
  grantsReceived: 2_000,
  threads: 500,
  bigPageChars: PAGE_MAX_CHARS,
  folderPages: 10_000,
  watchers: 10_000,
};
/** The costliest markdown known for the parser: unclosed link brackets, whose matching is quadratic in a paragraph. */
export const costliestMarkdown = (chars: number): string => "[x]".repeat(Math.floor(chars / 3));
/** 2,000 lines of about 33 characters, every one different in each revision. */
const revisionText = (revision: number): string =>
  Array.from(
    { length: 2_000 },
    (_, line) =>
      `line ${line} rev ${revision} ${((line * 7919 + revision * 104_729) % 1_000_003).toString(36).padStart(8, "x")} lorem ip`,
  ).join("\n");

export interface Caller {
  readonly id: string;
  readonly email: string;
  readonly cookie: string;
  /** An API token with every scope. */
  readonly token: string;
}

export interface Worst {
  readonly server: Child;
  /** The server's session secret: rows that need fresh users sign them in. */
  readonly secret: string;
  readonly api: string;
  readonly owner: Caller;
  readonly stranger: Caller;
  readonly sizes: WorstSizes;
  readonly folderId: string;
  readonly bigPageId: string;
  readonly historyPageId: string;
  /** An instant between the first and the last revision of the history page. */
  readonly midRevision: string;
  readonly linkedPageId: string;
  readonly threadId: string;
  readonly commentId: string;
  readonly imageId: string;
  readonly webhookId: string;
  readonly strangerPageId: string;
  readonly sampleTitle: string;
  /** A root folder of the owner's holding sizes.folderPages pages directly. */
  readonly bulkFolderId: string;
  /** A group of the owner's with view grants on GROUP_FOLDERS folders of the workspace, and no members. */
  readonly folderGroupId: string;
  /** The owner's group of the most members (1,000), every one of them watching the largest page. */
  readonly crowdGroupId: string;
  /** The most people one text mentions (200), each a watcher of the largest page. */
  readonly mentionedIds: readonly string[];
}

/** The most members a group holds, and the most people one text mentions. */
const GROUP_MAX_MEMBERS = 1_000;
const MENTIONS_MAX = 200;

/** `sizes.watchers` people who can view the largest page and watch it, half through its folder; the first 1,000 in one group. */
async function buildWatchers(
  api: string,
  secret: string,
  owner: Caller,
  place: { folderId: string; bigPageId: string; watchers: number },
): Promise<{ crowdGroupId: string; watcherIds: string[] }> {
  const post = (caller: Caller, path: string, body: unknown, method = "POST") =>
    call(api, path, { method, headers: jsonHeaders(caller), body });
  const crowdGroupId = field((await post(owner, "/groups", { name: "Everyone" })).body, "id");
  const watcherIds: string[] = [];
  const concurrency = 16;
  for (let start = 0; start < place.watchers; start += concurrency) {
    const batch = Array.from({ length: Math.min(concurrency, place.watchers - start) }, (_, k) => start + k);
    // Signing in and watching run side by side; grants on the one folder and joins of the one group, one at a time.
    const made = await Promise.all(batch.map(() => callerOf(api, secret, "watcher")));
    for (const watcher of made)
      await post(owner, `/shares/entity/folder/${place.folderId}/grants`, { email: watcher.email, permission: "view" });
    await Promise.all(
      made.map((watcher, k) => {
        const watched = (start + k) % 2 === 0 ? `/pages/${place.bigPageId}/watch` : `/folders/${place.folderId}/watch`;
        return post(watcher, watched, {}, "PUT");
      }),
    );
    for (const watcher of made) {
      if (watcherIds.length < GROUP_MAX_MEMBERS)
        await post(owner, `/groups/${crowdGroupId}/members`, { email: watcher.email });
      watcherIds.push(watcher.id);
    }
  }
  return { crowdGroupId, watcherIds };
}

export const jsonHeaders = (caller: Caller) => ({ cookie: caller.cookie, "content-type": "application/json" });

async function call(
  api: string,
  path: string,
  init: { method?: string; headers: Record<string, string>; body?: unknown },
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const reply = await fetch(`${api}${path}`, {
    method: init.method ?? "GET",
    headers: init.headers,
    ...(init.body === undefined ? {} : { body: typeof init.body === "string" ? init.body : JSON.stringify(init.body) }),
  });
  const text = await reply.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: markdown, a zip, an event stream.
  }
  if (reply.status >= 400)
    throw new Error(`${init.method ?? "GET"} ${path} answered ${reply.status}: ${text.slice(0, 300)}`);
  return { status: reply.status, body, headers: reply.headers };
}

const field = (value: unknown, name: string): string => {
  const found = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[name] : undefined;
  if (typeof found !== "string") throw new Error(`no ${name} in ${JSON.stringify(value).slice(0, 200)}`);
  return found;
};

/** The thread of a single-thread answer (`{thread}`). */
const threadOf = (body: unknown): { id: string; comments: unknown[] } => {
  const thread =
    typeof body === "object" && body !== null
      ? (body as { thread?: { id: string; comments: unknown[] } }).thread
      : undefined;
  if (!thread) throw new Error(`no thread in ${JSON.stringify(body).slice(0, 200)}`);
  return thread;
};

export async function callerOf(api: string, secret: string, label: string): Promise<Caller> {
  const id = randomUUID();
  const email = `${label}-${id.slice(0, 8)}@worst.example`;
  const cookie = `app-auth.session_token=${await mintSession(secret, { sub: id, email, name: label })}`;
  await call(api, "/me", { headers: { cookie } });
  const created = await call(api, "/tokens", {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: { name: `${label} all scopes`, scopes: ["pages:read", "pages:comment", "pages:write"] },
  });
  return { id, email, cookie, token: field(created.body, "token") };
}

/** Up to 1,000 notes per import, so the workspace grows in a few requests. */
async function importNotes(
  api: string,
  caller: Caller,
  notes: Array<{ path: string; content: string }>,
): Promise<void> {
  for (let start = 0; start < notes.length; start += 1_000) {
    await call(api, "/imports/obsidian", {
      method: "POST",
      headers: jsonHeaders(caller),
      body: { files: notes.slice(start, start + 1_000) },
    });
  }
}

export async function buildWorst(
  server: Child,
  secret: string,
  sizes: WorstSizes,
  log: (line: string) => void,
): Promise<Worst> {
  const api = `${server.url}/api/v1`;
  const owner = await callerOf(api, secret, "owner");
  const stranger = await callerOf(api, secret, "stranger");
  const post = (caller: Caller, path: string, body: unknown) =>
    call(api, path, { method: "POST", headers: jsonHeaders(caller), body });

  log(`worst: a workspace of ${sizes.pages} pages in nested folders`);
  const paragraph =
    "The quarterly plan covers hiring, the storage migration and the onboarding flow; each team lists goals and risks. ";
  await importNotes(
    api,
    owner,
    Array.from({ length: sizes.pages }, (_, i) => ({
      path: `Area ${i % 10}/Team ${i % 7}/Quarterly plan ${i}.md`,
      content: `# Plan ${i}\n\n${paragraph.repeat(15)}[[Quarterly plan ${(i + 1) % sizes.pages}]]\n`,
    })),
  );
  const folderId = field((await post(owner, "/folders", { name: "Worst case" })).body, "id");
  const sampleTitle = "Quarterly plan 7";

  log(`worst: the largest page (${sizes.bigPageChars} characters of unclosed link brackets)`);
  const bigPageId = field(
    (
      await post(owner, "/pages", {
        title: "Largest page",
        markdown: costliestMarkdown(sizes.bigPageChars),
        parentId: folderId,
      })
    ).body,
    "id",
  );

  log(`worst: a page with ${sizes.revisions} replacements of 2,000 lines`);
  const historyPageId = field(
    (await post(owner, "/pages", { title: "Longest history", markdown: revisionText(0), parentId: folderId })).body,
    "id",
  );
  let midRevision = "";
  for (let revision = 1; revision <= sizes.revisions; revision += 1) {
    const current = await call(api, `/pages/${historyPageId}/content`, { headers: { cookie: owner.cookie } });
    const replaced = await call(api, `/pages/${historyPageId}/content`, {
      method: "PUT",
      headers: { ...jsonHeaders(owner), "if-match": current.headers.get("etag") ?? "" },
      body: { markdown: revisionText(revision) },
    });
    if (revision === Math.floor(sizes.revisions / 2)) midRevision = replaced.headers.get("x-consistency-token") ?? "";
  }

  log(`worst: a folder of ${sizes.folderPages} pages, and a group holding ${GROUP_FOLDERS} folders`);
  await importNotes(
    api,
    owner,
    Array.from({ length: sizes.folderPages }, (_, i) => ({ path: `Bulk/Note ${i}.md`, content: `# Note ${i}\n` })),
  );
  const folders: Array<{ id: string; name: string; parentId: string | null }> = [];
  for (let cursor: string | null = null; ;) {
    const list = await call(api, `/folders?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, {
      headers: { cookie: owner.cookie },
    });
    const body = list.body as { data: typeof folders; nextCursor: string | null };
    folders.push(...body.data);
    cursor = body.nextCursor;
    if (cursor === null) break;
  }
  const bulkFolderId = folders.find((folder) => folder.name === "Bulk" && folder.parentId === null)?.id;
  if (!bulkFolderId) throw new Error("the Bulk folder is missing after its import");
  const folderGroupId = field((await post(owner, "/groups", { name: "Readers of 50 folders" })).body, "id");
  const teams = folders.filter((folder) => folder.name.startsWith("Team ")).slice(0, GROUP_FOLDERS);
  for (const team of teams)
    await post(owner, `/shares/entity/folder/${team.id}/grants`, { groupId: folderGroupId, permission: "view" });

  log(`worst: ${sizes.hiddenLinkers} pages the owner cannot see linking to one of the owner's pages`);
  const linkedPageId = field(
    (await post(owner, "/pages", { title: "Linked from everywhere", markdown: "# Target" })).body,
    "id",
  );
  await importNotes(
    api,
    stranger,
    Array.from({ length: sizes.hiddenLinkers }, (_, i) => ({
      path: `Links/Linker ${i}.md`,
      content: `See ${server.url}/api/v1/pages/${linkedPageId} for details (${i}).`,
    })),
  );

  log(`worst: ${sizes.grantsReceived} direct page grants to the owner`);
  const strangerPageId = field(
    (await post(stranger, "/pages", { title: "Stranger's page", markdown: "# Not yours" })).body,
    "id",
  );
  const granted = Array.from({ length: sizes.grantsReceived }, (_, i) => ({
    path: `Granted/Shared ${i}.md`,
    content: `Shared note ${i}: ${paragraph}`,
  }));
  await importNotes(api, stranger, granted);
  let grants = 0;
  for (let cursor: string | null = null; grants < sizes.grantsReceived;) {
    const list = await call(api, `/pages?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, {
      headers: { cookie: stranger.cookie },
    });
    const body = list.body as { data: Array<{ id: string; title: string }>; nextCursor: string | null };
    for (const page of body.data) {
      if (!page.title.startsWith("Shared ") || grants >= sizes.grantsReceived) continue;
      await post(stranger, `/shares/entity/page/${page.id}/grants`, { email: owner.email, permission: "view" });
      grants += 1;
    }
    cursor = body.nextCursor;
    if (cursor === null) break;
  }

  log(`worst: ${sizes.threads} comment threads on the largest page`);
  let threadId = "";
  for (let i = 0; i < sizes.threads; i += 1) {
    const opened = await post(owner, `/pages/${bigPageId}/comments`, {
      body: `Thread ${i}: ${"why? ".repeat(200)}`,
      anchor: { quote: "[x][x][x]" },
    });
    threadId = field(threadOf(opened.body), "id");
  }
  const reply = await post(owner, `/pages/${bigPageId}/comments/${threadId}/replies`, { body: "A reply" });
  const commentId = field(threadOf(reply.body).comments.at(-1), "id");

  log(`worst: ${sizes.watchers} watchers of the largest page, the first ${GROUP_MAX_MEMBERS} in one group`);
  const { crowdGroupId, watcherIds } = await buildWatchers(api, secret, owner, {
    folderId,
    bigPageId,
    watchers: sizes.watchers,
  });

  log("worst: the most pixels an image may carry, and 50 webhooks");
  const imageId = await uploadLargestImage(api, owner, bigPageId);
  let webhookId = "";
  for (let i = 0; i < 50; i += 1) {
    const created = await post(owner, "/webhooks", {
      url: `http://127.0.0.1:9/hook-${i}`,
      events: ["page.created", "page.updated"],
    });
    webhookId = field(created.body, "id");
  }
  return {
    server,
    secret,
    api,
    owner,
    stranger,
    sizes,
    folderId,
    bigPageId,
    historyPageId,
    midRevision,
    linkedPageId,
    threadId,
    commentId,
    imageId,
    webhookId,
    strangerPageId,
    sampleTitle,
    bulkFolderId,
    folderGroupId,
    crowdGroupId,
    mentionedIds: watcherIds.slice(0, MENTIONS_MAX),
  };
}

/** A 10000×9999 RGBA PNG of one colour: the most pixels the upload takes, in about 400 KB. */
export async function largestPng(): Promise<Buffer> {
  const sharp = (await import("sharp")).default;
  return sharp({
    create: { width: 10_000, height: 9_999, channels: 4, background: { r: 10, g: 20, b: 30, alpha: 0.5 } },
  })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

export function multipart(boundary: string, fileName: string, type: string, bytes: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="alt"\r\n\r\nWorst case\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

async function uploadLargestImage(api: string, caller: Caller, pageId: string): Promise<string> {
  const boundary = `worst${randomUUID().replaceAll("-", "")}`;
  const reply = await fetch(`${api}/pages/${pageId}/images`, {
    method: "POST",
    headers: { cookie: caller.cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
    body: Uint8Array.from(multipart(boundary, "largest.png", "image/png", await largestPng())),
  });
  const body: unknown = await reply.json();
  if (reply.status !== 201) throw new Error(`image upload answered ${reply.status}: ${JSON.stringify(body)}`);
  return field(body, "id");
}
