// A folder: created inside another folder (or at the root) of its owner's workspace.
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
] as const;
export type FolderEvent = z.infer<(typeof folderEventSchemas)[number]>;

export type FolderCommand = {
  type: "CreateFolder";
  folderId: FolderId;
  ownerId: UserId;
  parentId: FolderId | null;
  name: string;
  icon: string | null;
};

export type FolderState = { exists: boolean };

export const folderStream = (folderId: string): string => `folder-${folderId}`;

export const folderDecider: Decider<FolderCommand, FolderState, FolderEvent> = {
  initialState: { exists: false },
  decide(command, state) {
    if (state.exists) throw new AppError("conflict", "folder already exists");
    const { type: _type, ...data } = command;
    return [{ type: "FolderCreated", data }];
  },
  evolve() {
    return { exists: true };
  },
};
