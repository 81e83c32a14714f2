// A folder: created inside another folder (or at the root) of its owner's workspace, renamed, re-iconed and
// deleted (only while empty) through its stream. Where it sits after creation is the folder tree's to decide
// (folder-tree.decider.ts), since the cycle rule spans folders.
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import type { Decider } from "../kernel/decider.ts";
import { folderIdSchema, userIdSchema, type FolderId, type UserId } from "../kernel/ids.ts";

export const folderEventSchemas = [
  z.object({
    type: z.literal("FolderCreated"),
    data: z.object({
      folderId: folderIdSchema,
      ownerId: userIdSchema,
      parentId: folderIdSchema.nullable(),
      name: z.string(),
      icon: z.string().nullable(),
    }),
  }),
  z.object({ type: z.literal("FolderRenamed"), data: z.object({ folderId: folderIdSchema, name: z.string() }) }),
  z.object({
    type: z.literal("FolderIconChanged"),
    data: z.object({ folderId: folderIdSchema, icon: z.string().nullable() }),
  }),
  /**
   * Since the trash: the owner, folder and name it had when deleted, and `deletedWith`, the folder whose
   * recursive deletion took it (absent on deletions recorded before the trash, which are not in it).
   */
  z.object({
    type: z.literal("FolderDeleted"),
    data: z.object({
      folderId: folderIdSchema,
      ownerId: userIdSchema.optional(),
      parentId: folderIdSchema.nullable().optional(),
      name: z.string().optional(),
      deletedWith: folderIdSchema.nullable().optional(),
    }),
  }),
  /** Back from the trash, whole, into `parentId` (a move to the root, if any, is the tree's FolderMoved first). */
  z.object({
    type: z.literal("FolderUndeleted"),
    data: z.object({
      folderId: folderIdSchema,
      ownerId: userIdSchema,
      parentId: folderIdSchema.nullable(),
      name: z.string(),
      icon: z.string().nullable(),
      createdAt: z.string(),
    }),
  }),
  /** Past the trash's retention: out of the trash for good (the log keeps its events). */
  z.object({ type: z.literal("FolderPurged"), data: z.object({ folderId: folderIdSchema }) }),
] as const;
export type FolderEvent = z.infer<(typeof folderEventSchemas)[number]>;

export type FolderCommand =
  | {
      type: "CreateFolder";
      folderId: FolderId;
      ownerId: UserId;
      parentId: FolderId | null;
      name: string;
      icon: string | null;
    }
  | { type: "UpdateFolder"; folderId: FolderId; name?: string | undefined; icon?: string | null | undefined }
  /** `isEmpty`: whether the folder holds no live page or folder, as the caller found it. */
  | {
      type: "DeleteFolder";
      folderId: FolderId;
      isEmpty: boolean;
      /** Where it sits now (the read model's: moves are the tree's), for the trash. */
      parentId: FolderId | null;
      /** The folder whose recursive deletion takes this one along; null when it is deleted itself. */
      deletedWith: FolderId | null;
    }
  | { type: "UndeleteFolder"; folderId: FolderId; parentId: FolderId | null; createdAt: string }
  | { type: "PurgeFolder"; folderId: FolderId };

interface FolderFields {
  ownerId: UserId;
  /** The folder it was created in: fixed, later moves are the tree's. */
  createdParentId: FolderId | null;
  name: string;
  icon: string | null;
}
type LiveFolder = FolderFields & { status: "live" };
export type FolderState = { status: "absent" } | LiveFolder | (FolderFields & { status: "deleted" | "purged" });

export const folderStream = (folderId: string): string => `folder-${folderId}`;

export function liveFolder(state: FolderState): LiveFolder {
  if (state.status !== "live") throw new AppError("not_found", "folder not found");
  return state;
}

export const folderDecider: Decider<FolderCommand, FolderState, FolderEvent> = {
  initialState: { status: "absent" },
  decide(command, state) {
    switch (command.type) {
      case "CreateFolder": {
        if (state.status !== "absent") throw new AppError("conflict", "folder already exists");
        const { type: _type, ...data } = command;
        return [{ type: "FolderCreated", data }];
      }
      case "UpdateFolder": {
        const folder = liveFolder(state);
        const events: FolderEvent[] = [];
        if (command.name !== undefined && command.name !== folder.name) {
          events.push({ type: "FolderRenamed", data: { folderId: command.folderId, name: command.name } });
        }
        if (command.icon !== undefined && command.icon !== folder.icon) {
          events.push({ type: "FolderIconChanged", data: { folderId: command.folderId, icon: command.icon } });
        }
        return events;
      }
      case "DeleteFolder": {
        const folder = liveFolder(state);
        if (!command.isEmpty)
          throw new AppError("conflict", "the folder is not empty: move or delete what is inside first");
        const { folderId, parentId, deletedWith } = command;
        return [
          {
            type: "FolderDeleted",
            data: { folderId, ownerId: folder.ownerId, parentId, name: folder.name, deletedWith },
          },
        ];
      }
      case "UndeleteFolder": {
        if (state.status !== "deleted") throw new AppError("not_found", "folder not found in the trash");
        const { ownerId, name, icon } = state;
        return [
          {
            type: "FolderUndeleted",
            data: {
              folderId: command.folderId,
              ownerId,
              parentId: command.parentId,
              name,
              icon,
              createdAt: command.createdAt,
            },
          },
        ];
      }
      case "PurgeFolder":
        return state.status === "deleted" ? [{ type: "FolderPurged", data: { folderId: command.folderId } }] : [];
    }
  },
  evolve(state, event) {
    if (event.type === "FolderCreated") {
      const { ownerId, parentId, name, icon } = event.data;
      return { status: "live", ownerId, createdParentId: parentId, name, icon };
    }
    if (state.status === "absent") return state;
    switch (event.type) {
      case "FolderRenamed":
        return { ...state, name: event.data.name };
      case "FolderIconChanged":
        return { ...state, icon: event.data.icon };
      case "FolderDeleted":
        return { ...state, status: "deleted" };
      case "FolderUndeleted":
        return { ...state, status: "live" };
      case "FolderPurged":
        return { ...state, status: "purged" };
    }
  },
};
