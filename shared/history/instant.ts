// An instant of history as a client names it in `?at=` or a restore's `at`: a position from the history
// (an opaque decimal string) or an ISO-8601 time with its offset.
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import { positionOfToken, positionTokenSchema } from "../position.ts";

export type Instant =
  { readonly kind: "position"; readonly position: number } | { readonly kind: "time"; readonly ms: number };

export const instantSchema = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .refine(
    (value) =>
      positionTokenSchema.safeParse(value).success || z.iso.datetime({ offset: true }).safeParse(value).success,
    "must be a position from the history or an ISO-8601 time with an offset",
  )
  .transform((value): Instant =>
    positionTokenSchema.safeParse(value).success
      ? { kind: "position", position: positionOfToken(value) }
      : { kind: "time", ms: Date.parse(value) },
  );

/** Whether an entry at `position`, recorded at `occurredAt`, happened at or before the instant. */
export function happenedBy(
  instant: Instant,
  entry: { readonly position: number; readonly occurredAt: string },
): boolean {
  return instant.kind === "position" ? entry.position <= instant.position : Date.parse(entry.occurredAt) <= instant.ms;
}

/** An instant after `now` (a time) or beyond the last recorded position has no state yet: 400. */
export function refuseFuture(instant: Instant, now: Date, lastPosition: number, field = "at"): void {
  if (instant.kind === "time" && instant.ms > now.getTime())
    throw new AppError("validation_failed", `${field}: lies in the future`);
  if (instant.kind === "position" && instant.position > lastPosition)
    throw new AppError("validation_failed", `${field}: names a position beyond the history`);
}
