// The worst case within the documented limits, built through the public API of a fresh server: the largest page
// of the costliest markdown, a large workspace, the longest history, the most links to one page, the most
// webhooks, tokens and grants one user may hold. Every row of the worst-case table runs against it; what each
// part is and how it is made is in fixture/.
import type { Child } from "../processes.ts";
import { callerOf, field, post, type Caller } from "./fixture/calls.ts";
import { createBulkFolderAndGroup, GROUP_FOLDERS } from "./fixture/folders.ts";
import { uploadLargestImage } from "./fixture/images.ts";
import { createLargestPage, createLongestHistory, importWorkspace, PAGE_MAX_CHARS } from "./fixture/pages.ts";
import { createHiddenLinkers, grantPagesToOwner } from "./fixture/stranger.ts";
import { openThreads } from "./fixture/threads.ts";
import { buildWatchers, GROUP_MAX_MEMBERS } from "./fixture/watchers.ts";

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

/** The 50 webhooks of the quota, every one failing (nothing listens on port 9); the last one's id. */
async function createFailingWebhooks(api: string, owner: Caller): Promise<string> {
  let webhookId = "";
  for (let i = 0; i < 50; i += 1) {
    const created = await post(api, owner, "/webhooks", {
      url: `http://127.0.0.1:9/hook-${i}`,
      events: ["page.created", "page.updated"],
    });
    webhookId = field(created.body, "id");
  }
  return webhookId;
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

  log(`worst: a workspace of ${sizes.pages} pages in nested folders`);
  await importWorkspace(api, owner, sizes.pages);
  const folderId = field((await post(api, owner, "/folders", { name: "Worst case" })).body, "id");
  const sampleTitle = "Quarterly plan 7";

  log(`worst: the largest page (${sizes.bigPageChars} characters of unclosed link brackets)`);
  const bigPageId = await createLargestPage(api, owner, folderId, sizes.bigPageChars);

  log(`worst: a page with ${sizes.revisions} replacements of 2,000 lines`);
  const { historyPageId, midRevision } = await createLongestHistory(api, owner, folderId, sizes.revisions);

  log(`worst: a folder of ${sizes.folderPages} pages, and a group holding ${GROUP_FOLDERS} folders`);
  const { bulkFolderId, folderGroupId } = await createBulkFolderAndGroup(api, owner, sizes.folderPages);

  log(`worst: ${sizes.hiddenLinkers} pages the owner cannot see linking to one of the owner's pages`);
  const linkedPageId = await createHiddenLinkers(api, owner, stranger, sizes.hiddenLinkers);

  log(`worst: ${sizes.grantsReceived} direct page grants to the owner`);
  const strangerPageId = await grantPagesToOwner(api, owner, stranger, sizes.grantsReceived);

  log(`worst: ${sizes.threads} comment threads on the largest page`);
  const { threadId, commentId } = await openThreads(api, owner, bigPageId, sizes.threads);

  log(`worst: ${sizes.watchers} watchers of the largest page, the first ${GROUP_MAX_MEMBERS} in one group`);
  const { crowdGroupId, mentionedIds } = await buildWatchers(api, secret, owner, {
    folderId,
    bigPageId,
    watchers: sizes.watchers,
  });

  log("worst: the most pixels an image may carry, and 50 webhooks");
  const imageId = await uploadLargestImage(api, owner, bigPageId);
  const webhookId = await createFailingWebhooks(api, owner);
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
    mentionedIds,
  };
}
