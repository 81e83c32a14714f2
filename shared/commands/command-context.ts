// Who is acting, under which correlation id, at what time: the facts every event's metadata carries.
import type { UserId } from "../kernel/ids.ts";

export interface CommandContext {
  readonly actorId: UserId;
  readonly correlationId: string;
  readonly causationId?: string | null;
  readonly now: Date;
}
