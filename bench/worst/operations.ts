// One worst case per operation of the API reference: the most expensive request within the documented limits,
// against the fixture of fixture.ts. `prepare` makes what one iteration consumes (a page to delete, a token to
// revoke) before the timed part, so every timed request is the operation itself. The cases live in cases/, a file
// per capability; a new route's worst case goes into its capability's file.
import { accountCases } from "./cases/account.ts";
import { fanOutCases } from "./cases/fan-out.ts";
import { folderTrashCases } from "./cases/folders-and-trash.ts";
import { groupCases } from "./cases/groups.ts";
import { historyCases } from "./cases/history.ts";
import { imageAttachmentCases } from "./cases/images-and-attachments.ts";
import { importExportCases } from "./cases/imports-and-exports.ts";
import { notificationCases } from "./cases/notifications.ts";
import { pageCases } from "./cases/pages.ts";
import { searchCases } from "./cases/search.ts";
import { serviceCases } from "./cases/service.ts";
import { shareLinkCases } from "./cases/share-links.ts";
import { sharingCases } from "./cases/sharing.ts";
import { signInCases } from "./cases/sign-in.ts";
import { threadCases } from "./cases/threads.ts";
import { tokenAppWebhookCases } from "./cases/tokens-apps-webhooks.ts";
import type { WorstCases } from "./cases/worst-case.ts";

/** The capabilities' cases in one table; a key in two of them is a mistake, not an override. */
function gathered(...groups: readonly WorstCases[]): WorstCases {
  const all: WorstCases = {};
  for (const group of groups)
    for (const [key, worst] of Object.entries(group)) {
      if (key in all) throw new Error(`two worst cases of ${key}`);
      all[key] = worst;
    }
  return all;
}

/**
 * Keyed by method and OpenAPI path. The table's rows follow the served reference; the keys that are not
 * operations of it (a second worst case of one, "(fan-out)") come after, in this order.
 */
export const WORST_CASES: WorstCases = gathered(
  serviceCases,
  signInCases,
  accountCases,
  tokenAppWebhookCases,
  pageCases,
  searchCases,
  historyCases,
  threadCases,
  folderTrashCases,
  imageAttachmentCases,
  importExportCases,
  notificationCases,
  sharingCases,
  groupCases,
  fanOutCases,
  shareLinkCases,
);
