// Request and response shapes shared by many routes.
import { z } from "zod";

export const errorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

const DECIMAL_DIGITS = /^[0-9]{1,6}$/;

export const paginationQuery = z.object({
  cursor: z.string().min(1).max(200).optional(),
  // Plain decimal digits only: a coercing number schema would take "0x10", " 5" or "1e2" as well. The check is a
  // refinement rather than a pattern, and the metadata says integer, so the API reference (and a client generated
  // from it) shows the number a caller sends, not the string a query string carries.
  limit: z
    .string()
    .refine((value) => DECIMAL_DIGITS.test(value), "must be a whole number in decimal digits")
    .optional()
    .transform((value) => (value === undefined ? 50 : Number(value)))
    .pipe(z.number().int().min(1).max(100))
    .meta({
      type: "integer",
      minimum: 1,
      maximum: 100,
      description: "How many items to answer at most (50 when absent)",
    }),
});

export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), nextCursor: z.string().nullable() });
