// The signed token of a notification email's unsubscribe link (RFC 8058 one-click): it names a user and what to
// stop mailing (one kind, or every kind), and expires. An HMAC-SHA256 under a key derived (HKDF) from the server's
// key material, so it needs no storage and no sign-in; a token changed in any byte, or expired, reads as nothing.
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { userIdSchema, type UserId } from "../kernel/ids.ts";
import { notificationKindSchema, type NotificationKind } from "./notification-kinds.ts";

const VERSION = "u1";

/** What a token stops: one kind's emails, or every kind's (a digest's link). */
export type UnsubscribeScope = NotificationKind | "all";

const payloadSchema = z.object({
  u: userIdSchema,
  k: z.union([notificationKindSchema, z.literal("all")]),
  /** Expiry, in seconds since the epoch. */
  e: z.number().int().positive(),
});

export interface Unsubscribe {
  readonly userId: UserId;
  readonly scope: UnsubscribeScope;
}

export class UnsubscribeTokens {
  private readonly key: Buffer;

  /** `validForMs`: how long a token issued now stays good. */
  constructor(
    keyMaterial: string,
    private readonly validForMs: number,
  ) {
    this.key = Buffer.from(hkdfSync("sha256", keyMaterial, "workspace-notifications", "unsubscribe token v1", 32));
  }

  private mac(body: string): Buffer {
    return createHmac("sha256", this.key).update(`${VERSION}.${body}`).digest();
  }

  issue(userId: UserId, scope: UnsubscribeScope, now: Date): string {
    const expires = Math.floor((now.getTime() + this.validForMs) / 1000);
    const body = Buffer.from(JSON.stringify({ u: userId, k: scope, e: expires })).toString("base64url");
    return `${VERSION}.${body}.${this.mac(body).toString("base64url")}`;
  }

  /** What the token stops, or null when it is not one of ours, was changed, or has expired. */
  verify(token: string, now: Date): Unsubscribe | null {
    const [version, body, mac] = token.split(".");
    if (version !== VERSION || !body || !mac || token.split(".").length !== 3) return null;
    const given = Buffer.from(mac, "base64url");
    const expected = this.mac(body);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let payload: z.infer<typeof payloadSchema>;
    try {
      payload = payloadSchema.parse(JSON.parse(Buffer.from(body, "base64url").toString("utf8")));
    } catch {
      return null;
    }
    if (payload.e * 1000 <= now.getTime()) return null;
    return { userId: payload.u, scope: payload.k };
  }
}
