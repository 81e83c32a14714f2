// A page: title, icon and markdown body; renamed, re-iconed, rewritten, moved and soft-deleted through its stream.
import { z } from "zod";
import { applySpanEdits, type SpanEdit } from "./page-edits.ts";
import { AppError } from "../errors/app-error.ts";
import type { Decider } from "../kernel/decider.ts";
import { folderIdSchema, pageIdSchema, userIdSchema, type FolderId, type PageId, type UserId } from "../kernel/ids.ts";

export const pageEventSchemas = [
  z.object({
    type: z.literal("PageCreated"),
    data: z.object({
      pageId: pageIdSchema,
      ownerId: userIdSchema,
      parentId: folderIdSchema.nullable(),
      title: z.string(),
      icon: z.string().nullable(),
      markdown: z.string(),
      /** A copy made by POST /pages/{id}/duplicate names the page it was copied from (absent otherwise). */
      duplicatedFrom: pageIdSchema.optional(),
    }),
  }),
  /**
   * Schema version 2: the title it replaced, so the log reads "old → new" on its own. Version 1 events
   * (`{pageId, title}`) are upcast on read with `previousTitle: null` (see shared/event-store/upcasters.ts).
   */
  z.object({
    type: z.literal("PageRenamed"),
    data: z.object({ pageId: pageIdSchema, title: z.string(), previousTitle: z.string().nullable() }),
  }),
  z.object({
    type: z.literal("PageIconChanged"),
    data: z.object({ pageId: pageIdSchema, icon: z.string().nullable() }),
  }),
  z.object({ type: z.literal("PageContentReplaced"), data: z.object({ pageId: pageIdSchema, markdown: z.string() }) }),
  /**
   * Since the trash: the owner, folder and title the page had when deleted, which the trash lists (absent on
   * deletions recorded before it; such pages are not in the trash).
   */
  z.object({
    type: z.literal("PageDeleted"),
    data: z.object({
      pageId: pageIdSchema,
      ownerId: userIdSchema.optional(),
      parentId: folderIdSchema.nullable().optional(),
      title: z.string().optional(),
      /** The folder whose recursive deletion took the page along (absent or null: deleted itself). */
      deletedWith: folderIdSchema.nullable().optional(),
    }),
  }),
  /** Back from the trash, whole (so the read models rebuild it as on creation), into `parentId`. */
  z.object({
    type: z.literal("PageUndeleted"),
    data: z.object({
      pageId: pageIdSchema,
      ownerId: userIdSchema,
      parentId: folderIdSchema.nullable(),
      title: z.string(),
      icon: z.string().nullable(),
      markdown: z.string(),
      createdAt: z.string(),
    }),
  }),
  /** Past the trash's retention: removed from the read models for good (the log keeps its events). */
  z.object({ type: z.literal("PagePurged"), data: z.object({ pageId: pageIdSchema }) }),
  /** Title, icon and content made those the page had at an earlier position of its history: a new change. */
  z.object({
    type: z.literal("PageRestored"),
    data: z.object({
      pageId: pageIdSchema,
      title: z.string(),
      icon: z.string().nullable(),
      markdown: z.string(),
      restoredFrom: z.number().int().nonnegative(),
    }),
  }),
  z.object({
    type: z.literal("PageMoved"),
    data: z.object({ pageId: pageIdSchema, parentId: folderIdSchema.nullable() }),
  }),
] as const;
export type PageEvent = z.infer<(typeof pageEventSchemas)[number]>;

export type PageCommand =
  | {
      type: "CreatePage";
      pageId: PageId;
      ownerId: UserId;
      parentId: FolderId | null;
      title: string;
      icon: string | null;
      markdown: string;
      duplicatedFrom?: PageId;
    }
  | { type: "UpdatePage"; pageId: PageId; title?: string | undefined; icon?: string | null | undefined }
  | { type: "ReplaceContent"; pageId: PageId; markdown: string; ifMatchRevision: number }
  /**
   * Adds text at the end or the start of the markdown as it is when decided (so a retry after a lost race adds
   * it to the newer content); `ifMatchRevision` only when the caller sent If-Match. The result stays within
   * `maxChars`.
   */
  | {
      type: "AddContent";
      pageId: PageId;
      text: string;
      at: "end" | "start";
      ifMatchRevision: number | null;
      maxChars: number;
    }
  /** Exact-span replacements on the markdown at `ifMatchRevision`, all or none (page-edits.ts). */
  | { type: "EditContent"; pageId: PageId; edits: readonly SpanEdit[]; ifMatchRevision: number; maxChars: number }
  | { type: "DeletePage"; pageId: PageId; deletedWith?: FolderId }
  /** From the trash into `parentId` (the caller checked it still exists); `createdAt` is the page's first event's. */
  | { type: "UndeletePage"; pageId: PageId; parentId: FolderId | null; createdAt: string }
  | { type: "PurgePage"; pageId: PageId }
  | {
      type: "RestorePage";
      pageId: PageId;
      title: string;
      icon: string | null;
      markdown: string;
      restoredFrom: number;
      ifMatchRevision: number;
    }
  | { type: "MovePage"; pageId: PageId; parentId: FolderId | null };

interface PageFields {
  revision: number;
  ownerId: UserId;
  parentId: FolderId | null;
  title: string;
  icon: string | null;
  markdown: string;
}
type LivePage = PageFields & { status: "live" };
export type PageState = { status: "absent" } | LivePage | (PageFields & { status: "deleted" | "purged" });

export const pageStream = (pageId: string): string => `page-${pageId}`;

function live(state: PageState): LivePage {
  if (state.status !== "live") throw new AppError("not_found", "page not found");
  return state;
}

export const pageDecider: Decider<PageCommand, PageState, PageEvent> = {
  initialState: { status: "absent" },
  decide(command, state) {
    switch (command.type) {
      case "CreatePage": {
        if (state.status !== "absent") throw new AppError("conflict", "page already exists");
        const { type: _type, ...data } = command;
        return [{ type: "PageCreated", data }];
      }
      case "UpdatePage": {
        const page = live(state);
        const events: PageEvent[] = [];
        if (command.title !== undefined && command.title !== page.title) {
          events.push({
            type: "PageRenamed",
            data: { pageId: command.pageId, title: command.title, previousTitle: page.title },
          });
        }
        if (command.icon !== undefined && command.icon !== page.icon) {
          events.push({ type: "PageIconChanged", data: { pageId: command.pageId, icon: command.icon } });
        }
        return events;
      }
      case "ReplaceContent": {
        const page = live(state);
        if (page.revision !== command.ifMatchRevision) {
          throw new AppError("precondition_failed", "the page changed since that ETag was read; fetch it again");
        }
        if (page.markdown === command.markdown) return [];
        return [{ type: "PageContentReplaced", data: { pageId: command.pageId, markdown: command.markdown } }];
      }
      case "AddContent": {
        const page = live(state);
        if (command.ifMatchRevision !== null && page.revision !== command.ifMatchRevision) {
          throw new AppError("precondition_failed", "the page changed since that ETag was read; fetch it again");
        }
        if (command.text === "") return [];
        const joined = command.at === "end" ? page.markdown + command.text : command.text + page.markdown;
        // Two NFC texts side by side are not always NFC (a combining mark at the seam): the stored body is.
        const markdown = joined.normalize("NFC");
        if (markdown.length > command.maxChars) {
          throw new AppError(
            "validation_failed",
            `body: the page's markdown would be longer than ${command.maxChars} characters`,
          );
        }
        return [{ type: "PageContentReplaced", data: { pageId: command.pageId, markdown } }];
      }
      case "EditContent": {
        const page = live(state);
        if (page.revision !== command.ifMatchRevision) {
          throw new AppError("precondition_failed", "the page changed since that ETag was read; fetch it again");
        }
        const markdown = applySpanEdits(page.markdown, command.edits, command.maxChars);
        if (markdown === page.markdown) return [];
        return [{ type: "PageContentReplaced", data: { pageId: command.pageId, markdown } }];
      }
      case "DeletePage": {
        const page = live(state);
        const alongWith = command.deletedWith === undefined ? {} : { deletedWith: command.deletedWith };
        return [
          {
            type: "PageDeleted",
            data: {
              pageId: command.pageId,
              ownerId: page.ownerId,
              parentId: page.parentId,
              title: page.title,
              ...alongWith,
            },
          },
        ];
      }
      case "UndeletePage": {
        if (state.status !== "deleted") throw new AppError("not_found", "page not found in the trash");
        const { ownerId, title, icon, markdown } = state;
        return [
          {
            type: "PageUndeleted",
            data: {
              pageId: command.pageId,
              ownerId,
              parentId: command.parentId,
              title,
              icon,
              markdown,
              createdAt: command.createdAt,
            },
          },
        ];
      }
      case "PurgePage":
        return state.status === "deleted" ? [{ type: "PagePurged", data: { pageId: command.pageId } }] : [];
      case "RestorePage": {
        const page = live(state);
        if (page.revision !== command.ifMatchRevision) {
          throw new AppError("precondition_failed", "the page changed since that ETag was read; fetch it again");
        }
        const { title, icon, markdown, restoredFrom } = command;
        if (page.title === title && page.icon === icon && page.markdown === markdown) return [];
        return [{ type: "PageRestored", data: { pageId: command.pageId, title, icon, markdown, restoredFrom } }];
      }
      case "MovePage": {
        const page = live(state);
        if (page.parentId === command.parentId) return [];
        return [{ type: "PageMoved", data: { pageId: command.pageId, parentId: command.parentId } }];
      }
    }
  },
  evolve(state, event) {
    if (event.type === "PageCreated") {
      return {
        status: "live",
        revision: 0,
        ownerId: event.data.ownerId,
        parentId: event.data.parentId,
        title: event.data.title,
        icon: event.data.icon,
        markdown: event.data.markdown,
      };
    }
    if (state.status === "absent") return state;
    const next = { ...state, revision: state.revision + 1 };
    switch (event.type) {
      case "PageRenamed":
        return { ...next, title: event.data.title };
      case "PageIconChanged":
        return { ...next, icon: event.data.icon };
      case "PageContentReplaced":
        return { ...next, markdown: event.data.markdown };
      case "PageDeleted":
        return { ...next, status: "deleted" };
      case "PageRestored":
        return { ...next, title: event.data.title, icon: event.data.icon, markdown: event.data.markdown };
      case "PageMoved":
        return { ...next, parentId: event.data.parentId };
      case "PageUndeleted":
        return { ...next, status: "live", parentId: event.data.parentId };
      case "PagePurged":
        return { ...next, status: "purged" };
    }
  },
};
