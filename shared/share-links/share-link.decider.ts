// A public share link of a page or folder: created by someone who may share it, changed (expiry, password,
// indexing), revoked for good, and its views counted in batches the query nodes report through the write side.
// The secret is recorded only as its SHA-256 and the password only as its scrypt hash.
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import type { Decider } from "../kernel/decider.ts";
import { shareLinkIdSchema, userIdSchema, type ShareLinkId, type UserId } from "../kernel/ids.ts";
import { passwordHashShape } from "./share-link-password.ts";

export const shareLinkEntityTypeSchema = z.enum(["page", "folder"]);
export type ShareLinkEntityType = z.infer<typeof shareLinkEntityTypeSchema>;

const passwordHashSchema = z.string().regex(passwordHashShape).nullable();
const settings = { expiresAt: z.string().nullable(), passwordHash: passwordHashSchema, allowIndexing: z.boolean() };
const target = { linkId: shareLinkIdSchema, entityType: shareLinkEntityTypeSchema, entityId: z.uuid() };

export const shareLinkEventSchemas = [
  z.object({
    type: z.literal("ShareLinkCreated"),
    data: z.object({ ...target, createdBy: userIdSchema, secretHash: z.string().regex(/^[0-9a-f]{64}$/), ...settings }),
  }),
  z.object({ type: z.literal("ShareLinkChanged"), data: z.object({ ...target, ...settings }) }),
  z.object({ type: z.literal("ShareLinkRevoked"), data: z.object(target) }),
  /** Views counted by query nodes since their last report (one event per report, never per view). */
  z.object({
    type: z.literal("ShareLinkViewed"),
    data: z.object({ linkId: shareLinkIdSchema, views: z.number().int().min(1), lastViewedAt: z.string() }),
  }),
] as const;
export type ShareLinkEvent = z.infer<(typeof shareLinkEventSchemas)[number]>;

interface ShareLinkSettings {
  readonly expiresAt: string | null;
  readonly passwordHash: string | null;
  readonly allowIndexing: boolean;
}

/** A password change: keep the current one, set a new hash, or remove it. */
export type PasswordChange =
  { readonly kind: "keep" } | { readonly kind: "set"; readonly hash: string } | { readonly kind: "remove" };

export type ShareLinkCommand =
  | ({
      type: "CreateShareLink";
      linkId: ShareLinkId;
      entityType: ShareLinkEntityType;
      entityId: string;
      createdBy: UserId;
      secretHash: string;
    } & ShareLinkSettings)
  | {
      type: "ChangeShareLink";
      linkId: ShareLinkId;
      expiresAt?: string | null;
      password: PasswordChange;
      allowIndexing?: boolean;
    }
  | { type: "RevokeShareLink"; linkId: ShareLinkId }
  | { type: "RecordShareLinkViews"; linkId: ShareLinkId; views: number; lastViewedAt: string };

export type ShareLinkState =
  | { exists: false }
  | ({ exists: true; entityType: ShareLinkEntityType; entityId: string; revoked: boolean } & ShareLinkSettings);

export const shareLinkStream = (linkId: string): string => `share-link-${linkId}`;

export const shareLinkDecider: Decider<ShareLinkCommand, ShareLinkState, ShareLinkEvent> = {
  initialState: { exists: false },
  decide(command, state) {
    switch (command.type) {
      case "CreateShareLink": {
        if (state.exists) throw new AppError("conflict", "share link already exists");
        const { type: _type, ...data } = command;
        return [{ type: "ShareLinkCreated", data }];
      }
      case "ChangeShareLink": {
        if (!state.exists || state.revoked) throw new AppError("not_found", "share link not found");
        const passwordHash =
          command.password.kind === "keep"
            ? state.passwordHash
            : command.password.kind === "set"
              ? command.password.hash
              : null;
        const next = {
          expiresAt: command.expiresAt === undefined ? state.expiresAt : command.expiresAt,
          passwordHash,
          allowIndexing: command.allowIndexing ?? state.allowIndexing,
        };
        if (
          next.expiresAt === state.expiresAt &&
          next.passwordHash === state.passwordHash &&
          next.allowIndexing === state.allowIndexing
        )
          return [];
        return [
          {
            type: "ShareLinkChanged",
            data: { linkId: command.linkId, entityType: state.entityType, entityId: state.entityId, ...next },
          },
        ];
      }
      case "RevokeShareLink":
        if (!state.exists) throw new AppError("not_found", "share link not found");
        if (state.revoked) return [];
        return [
          {
            type: "ShareLinkRevoked",
            data: { linkId: command.linkId, entityType: state.entityType, entityId: state.entityId },
          },
        ];
      case "RecordShareLinkViews":
        // Views reported after a revocation are not counted: the link no longer shows anything.
        if (!state.exists || state.revoked || command.views < 1) return [];
        return [
          {
            type: "ShareLinkViewed",
            data: { linkId: command.linkId, views: command.views, lastViewedAt: command.lastViewedAt },
          },
        ];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case "ShareLinkCreated": {
        const { entityType, entityId, expiresAt, passwordHash, allowIndexing } = event.data;
        return { exists: true, entityType, entityId, revoked: false, expiresAt, passwordHash, allowIndexing };
      }
      case "ShareLinkChanged": {
        if (!state.exists) return state;
        const { expiresAt, passwordHash, allowIndexing } = event.data;
        return { ...state, expiresAt, passwordHash, allowIndexing };
      }
      case "ShareLinkRevoked":
        return state.exists ? { ...state, revoked: true } : state;
      case "ShareLinkViewed":
        return state;
    }
  },
};
