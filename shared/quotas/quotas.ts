// The per-user quotas a command process enforces, bound to the read models that count what each key holds:
// active API tokens per user, and blob bytes stored per workspace owner (every image and attached file uploaded,
// copied by a duplicate or imported into the workspace, until its page is purged: one running total per owner,
// kept by the stored-bytes projection).
import type { ReadModels } from "../read-store/read-store.port.ts";
import { Quota } from "./quota.ts";

export interface Quotas {
  readonly tokens: Quota;
  readonly blobBytes: Quota;
}

export interface QuotaLimits {
  readonly tokensPerUser: number;
  readonly blobBytesPerOwner: number;
}

const megabytes = (bytes: number): string => `${Math.floor(bytes / (1024 * 1024)).toLocaleString("en")} MB`;

export function quotasFor(
  limits: QuotaLimits,
  views: Pick<ReadModels, "tokens" | "storedBytes">,
  clock: () => Date,
): Quotas {
  return {
    tokens: new Quota({
      limit: limits.tokensPerUser,
      used: async (userId) => {
        const now = clock().getTime();
        return (await views.tokens.listForUser(userId)).filter(
          (token) => token.expiresAt === null || Date.parse(token.expiresAt) > now,
        ).length;
      },
      refusal: (limit) => `you hold ${limit} active API tokens, the most one user may; revoke one first`,
    }),
    blobBytes: new Quota({
      limit: limits.blobBytesPerOwner,
      used: (ownerId) => views.storedBytes.ofOwner(ownerId),
      refusal: (limit) =>
        `the workspace would store more than ${megabytes(limit)} of images and files; delete pages holding them first`,
    }),
  };
}
