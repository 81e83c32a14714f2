// An export of pages as a vault (GET /exports/obsidian), recorded for the workspace's audit trail: who took which
// folder, or their whole workspace, and through which credential (the metadata's token). Each export is a stream
// of its own, so recording one never reads the ones before it. The data holds ids only.
import { z } from "zod";
import type { Decider } from "../kernel/decider.ts";
import { folderIdSchema, userIdSchema, type FolderId, type UserId } from "../kernel/ids.ts";

export const vaultExportEventSchemas = [
  z.object({
    type: z.literal("VaultExported"),
    data: z.object({ exportId: z.uuid(), userId: userIdSchema, folderId: folderIdSchema.nullable() }),
  }),
] as const;
export type VaultExportEvent = z.infer<(typeof vaultExportEventSchemas)[number]>;

export type VaultExportCommand = { type: "RecordExport"; exportId: string; userId: UserId; folderId: FolderId | null };

export const vaultExportStream = (exportId: string): string => `vault-export-${exportId}`;

export const vaultExportDecider: Decider<VaultExportCommand, { recorded: boolean }, VaultExportEvent> = {
  initialState: { recorded: false },
  decide(command, state) {
    if (state.recorded) return [];
    const { exportId, userId, folderId } = command;
    return [{ type: "VaultExported", data: { exportId, userId, folderId } }];
  },
  evolve: () => ({ recorded: true }),
};
