// Request and response shapes shared by many routes.
import { z } from "zod";

export const errorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export const paginationQuery = z.object({
  cursor: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), nextCursor: z.string().nullable() });

export const uuid = z.uuid();
