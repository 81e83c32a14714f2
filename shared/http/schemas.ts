// Request and response shapes shared by many routes.
import { z } from "zod";

export const errorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export const paginationQuery = z.object({
  cursor: z.string().min(1).max(200).optional(),
  // Plain decimal digits only: a coercing number schema would take "0x10", " 5" or "1e2" as well.
  limit: z
    .string()
    .regex(/^[0-9]{1,6}$/, "must be a whole number in decimal digits")
    .default("50")
    .transform(Number)
    .pipe(z.number().int().min(1).max(100)),
});

export const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), nextCursor: z.string().nullable() });

export const uuid = z.uuid();
