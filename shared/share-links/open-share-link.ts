// What a public request through a share link may see. A link shows something only while it is not revoked, not
// expired, its page or folder exists, and its creator may still share that page or folder (admin): a creator who
// loses admin suspends their links (they answer 404 until admin is given back; revoking stays for good). A folder
// link shows the pages below the folder as they are now: a page moved out of it is no longer reached.
import type { FolderRecord } from "../folders/folders.view.ts";
import { atLeast } from "../kernel/permissions.ts";
import type { PageRecord } from "../pages/page-record.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { permissionOn } from "../sharing/shared-entity.ts";
import { unlockTokenValid } from "./share-link-password.ts";
import { hashShareLinkSecret, looksLikeShareLinkSecret, secretMatches } from "./share-link-secret.ts";
import type { ShareLinkRecord } from "./share-links.view.ts";

export type OpenedLink =
  | { readonly link: ShareLinkRecord; readonly secret: string; readonly kind: "page"; readonly page: PageRecord }
  | { readonly link: ShareLinkRecord; readonly secret: string; readonly kind: "folder"; readonly folder: FolderRecord };

/** Pages a folder link lists and links to at most (the newest of them when there are more). */
const MAX_FOLDER_PAGES = 500;

export const UNLOCK_COOKIE = "share_unlock";

export async function openShareLink(views: ReadModels, secret: string, now: Date): Promise<OpenedLink | null> {
  if (!looksLikeShareLinkSecret(secret)) return null;
  const link = await views.shareLinks.findBySecretHash(hashShareLinkSecret(secret));
  if (!link || !secretMatches(secret, link.secretHash) || link.revokedAt !== null) return null;
  if (link.expiresAt !== null && Date.parse(link.expiresAt) <= now.getTime()) return null;
  if (!atLeast(await permissionOn(views, link.createdBy, link.entityType, link.entityId), "admin")) return null;
  if (link.entityType === "page") {
    const page = await views.pages.get(link.entityId);
    return page ? { link, secret, kind: "page", page } : null;
  }
  const folder = await views.folders.get(link.entityId);
  return folder ? { link, secret, kind: "folder", folder } : null;
}

/** The page `pageId` if the link reaches it now (the page itself, or a live page below the folder). */
export async function pageOfLink(views: ReadModels, opened: OpenedLink, pageId: string): Promise<PageRecord | null> {
  if (opened.kind === "page") return opened.page.id === pageId.toLowerCase() ? opened.page : null;
  const page = await views.pages.get(pageId.toLowerCase());
  return page && page.ancestorIds.includes(opened.folder.id) ? page : null;
}

/** The pages a link shows, ordered by their place below the folder and title. */
export async function pagesOfLink(views: ReadModels, opened: OpenedLink): Promise<PageRecord[]> {
  if (opened.kind === "page") return [opened.page];
  const { pageIds } = await views.folders.below(opened.folder.id);
  const pages = (await Promise.all(pageIds.slice(0, MAX_FOLDER_PAGES).map((id) => views.pages.get(id)))).filter(
    (page): page is PageRecord => page !== null,
  );
  return pages.sort((a, b) => a.folderPath.localeCompare(b.folderPath) || a.title.localeCompare(b.title));
}

/** The folder path of a page below a folder link's folder, relative to it ("" directly inside). */
export function placeInLink(opened: OpenedLink, page: PageRecord): string {
  if (opened.kind === "page") return "";
  const root = opened.folder.path;
  return page.folderPath === root
    ? ""
    : page.folderPath.startsWith(`${root}/`)
      ? page.folderPath.slice(root.length + 1)
      : "";
}

/** A cookie's value as sent; a malformed escape is kept as it is (it then matches nothing). */
function cookieValue(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Whether the request holds a valid unlock cookie for this link (always true for a link without password). */
export function isUnlocked(opened: OpenedLink, cookieHeader: string | undefined, nowSeconds: number): boolean {
  const hash = opened.link.passwordHash;
  if (hash === null) return true;
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === UNLOCK_COOKIE && unlockTokenValid(cookieValue(value.join("=")), hash, opened.link.id, nowSeconds))
      return true;
  }
  return false;
}
