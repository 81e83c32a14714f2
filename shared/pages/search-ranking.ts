// What a search's ranking takes and gives back, as the worker pool's task carries it (the statement itself is the
// SQLite read store's: shared/adapters/sqlite/page-search-rank.ts).
import { z } from "zod";

export const rankParamsSchema = z.object({
  /** The full MATCH expression: terms in their columns, the visibility, the folder and owner filters. */
  match: z.string(),
  /** The terms against the title alone: a flag on the rows `match` chose. */
  titleMatch: z.string(),
  /** Pages last changed strictly after / before these instants (ISO-8601 in UTC), or null. */
  after: z.string().nullable(),
  before: z.string().nullable(),
  limit: z.number().int().min(1),
  offset: z.number().int().min(0),
});
export type RankParams = z.infer<typeof rankParamsSchema>;

export const rankedDocSchema = z.object({ doc: z.number().int(), inTitle: z.boolean() });
export type RankedDoc = z.infer<typeof rankedDocSchema>;
