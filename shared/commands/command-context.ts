// Who is acting, under which correlation id, at what time: the facts every event's metadata carries.
import type { UserId } from "../kernel/ids.ts";

export interface CommandContext {
  readonly actorId: UserId;
  readonly correlationId: string;
  /** The API token the actor acts through (null or absent: a browser session, or the service itself). */
  readonly tokenId?: string | null;
  readonly causationId?: string | null;
  readonly now: Date;
}
