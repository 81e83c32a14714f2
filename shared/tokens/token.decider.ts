// A named API token: created through a session, stored only as the SHA-256 of its secret, revocable.
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import type { Decider } from "../kernel/decider.ts";
import { tokenIdSchema, userIdSchema, type TokenId, type UserId } from "../kernel/ids.ts";
import { scopeSchema, type Scope } from "../kernel/scopes.ts";

/** lastUsedAt moves at most once a minute (docs/guide/tokens.md). */
export const TOKEN_USE_GRANULARITY_MS = 60_000;

export const tokenEventSchemas = [
  z.object({
    type: z.literal("TokenCreated"),
    data: z.object({
      tokenId: tokenIdSchema,
      userId: userIdSchema,
      name: z.string(),
      scopes: z.array(scopeSchema).min(1),
      expiresAt: z.string().nullable(),
      secretHash: z.string().regex(/^[0-9a-f]{64}$/),
    }),
  }),
  z.object({ type: z.literal("TokenUsed"), data: z.object({ tokenId: tokenIdSchema, usedAt: z.string() }) }),
  z.object({ type: z.literal("TokenRevoked"), data: z.object({ tokenId: tokenIdSchema }) }),
] as const;
export type TokenEvent = z.infer<(typeof tokenEventSchemas)[number]>;

export type TokenCommand =
  | {
      type: "CreateToken";
      tokenId: TokenId;
      userId: UserId;
      name: string;
      scopes: Scope[];
      expiresAt: string | null;
      secretHash: string;
    }
  | { type: "RecordTokenUse"; tokenId: TokenId; now: string }
  | { type: "RevokeToken"; tokenId: TokenId; userId: UserId };

export type TokenState =
  { exists: false } | { exists: true; userId: UserId; revoked: boolean; lastUsedAt: string | null };

export const tokenStream = (tokenId: string): string => `token-${tokenId}`;

export const tokenDecider: Decider<TokenCommand, TokenState, TokenEvent> = {
  initialState: { exists: false },
  decide(command, state) {
    switch (command.type) {
      case "CreateToken": {
        if (state.exists) throw new AppError("conflict", "token already exists");
        const { type: _type, ...data } = command;
        return [{ type: "TokenCreated", data }];
      }
      case "RecordTokenUse": {
        if (!state.exists || state.revoked) return [];
        const last = state.lastUsedAt ? Date.parse(state.lastUsedAt) : Number.NEGATIVE_INFINITY;
        if (Date.parse(command.now) - last < TOKEN_USE_GRANULARITY_MS) return [];
        return [{ type: "TokenUsed", data: { tokenId: command.tokenId, usedAt: command.now } }];
      }
      case "RevokeToken":
        if (!state.exists || state.userId !== command.userId) throw new AppError("not_found", "token not found");
        if (state.revoked) return [];
        return [{ type: "TokenRevoked", data: { tokenId: command.tokenId } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case "TokenCreated":
        return { exists: true, userId: event.data.userId, revoked: false, lastUsedAt: null };
      case "TokenUsed":
        return state.exists ? { ...state, lastUsedAt: event.data.usedAt } : state;
      case "TokenRevoked":
        return state.exists ? { ...state, revoked: true } : state;
    }
  },
};
