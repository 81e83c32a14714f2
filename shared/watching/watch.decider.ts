// One user's watch of one page or folder, in its own stream (watch-<kind>-<entityId>-<userId>): watching is
// asked for and given up explicitly; asking for what already holds records nothing.
import { z } from "zod";
import type { Decider } from "../kernel/decider.ts";
import { folderIdSchema, pageIdSchema, userIdSchema, type UserId } from "../kernel/ids.ts";
import type { WatchedKind } from "./watches.view.ts";

export const watchEventSchemas = [
  z.object({ type: z.literal("PageWatched"), data: z.object({ pageId: pageIdSchema, userId: userIdSchema }) }),
  z.object({ type: z.literal("PageUnwatched"), data: z.object({ pageId: pageIdSchema, userId: userIdSchema }) }),
  z.object({ type: z.literal("FolderWatched"), data: z.object({ folderId: folderIdSchema, userId: userIdSchema }) }),
  z.object({ type: z.literal("FolderUnwatched"), data: z.object({ folderId: folderIdSchema, userId: userIdSchema }) }),
] as const;
export type WatchEvent = z.infer<(typeof watchEventSchemas)[number]>;

export interface WatchTarget {
  readonly kind: WatchedKind;
  readonly entityId: string;
  readonly userId: UserId;
}

/**
 * What the user asked for. The stream knows only explicit requests (automatic watches are derived by the
 * projection), so stopping an automatic watch records an event although none came before.
 */
export type WatchCommand = { type: "SetWatch"; target: WatchTarget; watching: boolean };
export interface WatchState {
  readonly watching: boolean | null;
}

export const watchStream = (target: WatchTarget): string => `watch-${target.kind}-${target.entityId}-${target.userId}`;

function eventOf(target: WatchTarget, watching: boolean): WatchEvent {
  const userId = target.userId;
  if (target.kind === "page") {
    const pageId = pageIdSchema.parse(target.entityId);
    return watching
      ? { type: "PageWatched", data: { pageId, userId } }
      : { type: "PageUnwatched", data: { pageId, userId } };
  }
  const folderId = folderIdSchema.parse(target.entityId);
  return watching
    ? { type: "FolderWatched", data: { folderId, userId } }
    : { type: "FolderUnwatched", data: { folderId, userId } };
}

export const watchDecider: Decider<WatchCommand, WatchState, WatchEvent> = {
  initialState: { watching: null },
  decide(command, state) {
    if (state.watching === command.watching) return [];
    return [eventOf(command.target, command.watching)];
  },
  evolve(_state, event) {
    return { watching: event.type === "PageWatched" || event.type === "FolderWatched" };
  },
};
