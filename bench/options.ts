// Benchmark options: --quick (about seven minutes on 2 cores) or the full run (about thirty), each size overridable;
// --no-peer leaves out the Emmett appends peer; --only loop runs the event-loop row alone, --only worst the
// worst-case table of every operation, --only attachments the 40 MB attachment rows, --only erasure the rows of
// the cost of sealing, --only noisy the noisy-neighbour rows (one caller at its worst per shared resource, another
// caller timed beside it).
import { parseArgs } from "node:util";
import { z } from "zod";

const optionsSchema = z.object({
  quick: z.boolean(),
  profile: z.boolean(),
  /** Skip the appends peer (its first use runs `npm install`, which a worktree sharing node_modules must not). */
  noPeer: z.boolean(),
  pages: z.coerce.number().int().min(100),
  duration: z.coerce.number().int().min(1).max(120),
  connections: z.coerce.number().int().min(1).max(500),
  replayEvents: z.coerce.number().int().min(1_000),
  appendEvents: z.coerce.number().int().min(1_000),
  lagSeconds: z.coerce.number().int().min(1).max(120),
  /** One row alone instead of the whole table. */
  only: z.enum(["loop", "worst", "attachments", "erasure", "noisy"]).optional(),
});
export type BenchOptions = z.infer<typeof optionsSchema>;

export function parseBenchOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: "boolean", default: false },
      profile: { type: "boolean", default: false },
      "no-peer": { type: "boolean", default: false },
      pages: { type: "string" },
      duration: { type: "string" },
      connections: { type: "string" },
      "replay-events": { type: "string" },
      "append-events": { type: "string" },
      "lag-seconds": { type: "string" },
      only: { type: "string" },
    },
  });
  const quick = values.quick ?? false;
  return optionsSchema.parse({
    quick,
    profile: values.profile ?? false,
    noPeer: values["no-peer"] ?? false,
    pages: values.pages ?? (quick ? 10_000 : 100_000),
    duration: values.duration ?? (quick ? 5 : 20),
    connections: values.connections ?? 50,
    replayEvents: values["replay-events"] ?? (quick ? 100_000 : 1_000_000),
    appendEvents: values["append-events"] ?? (quick ? 5_000 : 50_000),
    lagSeconds: values["lag-seconds"] ?? (quick ? 3 : 10),
    only: values.only,
  });
}
