// Which fields of which events hold a page's or a folder's content, sealed under that item's own key
// (`page:<id>`, `folder:<id>`), so purging the item from the trash erases its content from the log by
// destroying one key. A page's title, icon and markdown in every event that carries them, its comments' bodies
// and the quoted text their threads are anchored to, the names of its images and attachments; a folder's name
// and icon. Each reads, once its key is destroyed, as an erased value of the field's own type. Pure.
import type { EventMetadata } from "../event-store/event-store.port.ts";
import { subjects } from "./key-store.port.ts";
import { NO_PERSONAL_DATA, type SealedField, type SealingRule, type SealingRules } from "./sealing-rule.ts";

/** The title an erased page (and the name an erased folder) reads as. */
export const ERASED_PAGE_TITLE = "Erased page";
const ERASED_FOLDER_NAME = "Erased folder";
/** What an erased file name reads as (an image's or an attachment's). */
const ERASED_FILE_NAME = "erased";
/** An erased thread's anchor: a quote must not be empty, and this one is found in no page. */
export const ERASED_ANCHOR = { quote: "Erased", prefix: "", suffix: "" } as const;

type Data = Readonly<Record<string, unknown>>;

const isRecord = (value: unknown): value is Data =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const text = <const Field extends string, Erased>(field: Field, erased: Erased) =>
  ({ field, kind: "text", erased }) as const;
const idOf = (data: Data, field: string): string | null => {
  const value = data[field];
  return typeof value === "string" && value.length > 0 ? value : null;
};

const title = text("title", ERASED_PAGE_TITLE);
const icon = text("icon", null);
const markdown = text("markdown", "");
const body = text("body", "");
const name = text("name", ERASED_FOLDER_NAME);
const filename = text("filename", ERASED_FILE_NAME);
const originalName = text("originalName", ERASED_FILE_NAME);

const page = <Data extends { readonly pageId?: unknown }>(...fields: SealedField<Data>[]): SealingRule<Data> => ({
  subject: { named: "pageId", by: subjects.page },
  fields,
});
const folder = <Data extends { readonly folderId: unknown }>(...fields: SealedField<Data>[]): SealingRule<Data> => ({
  subject: { named: "folderId", by: subjects.folder },
  fields,
});

export const contentSealingRules = {
  PageCreated: page(title, icon, markdown),
  PageRenamed: page(title, text("previousTitle", ERASED_PAGE_TITLE)),
  PageIconChanged: page(icon),
  PageContentReplaced: page(markdown),
  PageDeleted: page(title),
  PageUndeleted: page(title, icon, markdown),
  PageRestored: page(title, icon, markdown),
  PageMoved: NO_PERSONAL_DATA,
  PagePurged: NO_PERSONAL_DATA,
  // The anchor copies the page's words it quotes; comments recorded before bodies were sealed name no page.
  ThreadOpened: page({ field: "anchor", kind: "json", erased: ERASED_ANCHOR }),
  CommentAdded: page(body),
  CommentEdited: page(body),
  CommentDeleted: NO_PERSONAL_DATA,
  ThreadResolved: NO_PERSONAL_DATA,
  ThreadReopened: NO_PERSONAL_DATA,
  // The image's own `filename` is `<id>.<extension>`, its blob's key: only what the uploader named is sealed.
  ImageUploaded: page(originalName, text("alt", "")),
  AttachmentUploaded: page(filename, originalName),
  AttachmentReplaced: page(filename, originalName),
  AttachmentDeleted: page(filename),
  FolderCreated: folder(name, icon),
  FolderRenamed: folder(name),
  FolderIconChanged: folder(icon),
  FolderDeleted: folder(name),
  FolderUndeleted: folder(name, icon),
  FolderMoved: NO_PERSONAL_DATA,
  FolderPurged: NO_PERSONAL_DATA,
} satisfies Partial<SealingRules>;

const PAGE_LOCATION = /\/pages\/([0-9a-f-]{36})(?:\/|$)/i;
const FOLDER_LOCATION = /\/folders\/([0-9a-f-]{36})$/i;

/**
 * Whose key seals the answer recorded for an Idempotency-Key: the page's or folder's the request wrote (its
 * Location names it: a page created or duplicated, a comment on a page; else the page the completion records,
 * an image upload's and an attachment's; else the page an older attachment answer names), so purging that item
 * makes its answer unreadable too; the caller's otherwise (a share names an address, an import many notes).
 */
export function idempotentAnswerSubject(data: Data, metadata: EventMetadata): string {
  const location = idOf(data, "location");
  const onPage = location === null ? null : PAGE_LOCATION.exec(location)?.[1];
  if (onPage) return subjects.page(onPage);
  const onFolder = location === null ? null : FOLDER_LOCATION.exec(location)?.[1];
  if (onFolder) return subjects.folder(onFolder);
  const pageId = idOf(data, "pageId") ?? (isRecord(data.body) ? idOf(data.body, "pageId") : null);
  if (pageId !== null && /^[0-9a-f-]{36}$/i.test(pageId)) return subjects.page(pageId);
  return subjects.user(metadata.actorId);
}
