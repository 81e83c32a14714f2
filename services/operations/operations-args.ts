// Command-line arguments of `npm run backup`, `npm run restore` and `npm run projections`, parsed by zod: a bad
// value stops the tool with a message naming the flag.
import { z } from "zod";
import { PROJECTION_NAMES, type ProjectionName } from "../../shared/read-store/parked-events.port.ts";

/** `--name value` pairs, and `--name` alone for the flags in `switches`. */
function flags(argv: readonly string[], switches: readonly string[] = []): Record<string, string | true> {
  const parsed: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i] ?? "";
    if (!flag.startsWith("--")) throw new Error(`unexpected argument ${JSON.stringify(flag)}`);
    const name = flag.slice(2);
    if (name in parsed) throw new Error(`${flag}: given twice`);
    if (switches.includes(name)) {
      parsed[name] = true;
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined || value.startsWith("--")) throw new Error(`${flag}: needs a value`);
    parsed[name] = value;
    i += 1;
  }
  return parsed;
}

function parse<T extends z.ZodType>(schema: T, argv: readonly string[], switches: readonly string[] = []): z.infer<T> {
  const result = schema.safeParse(flags(argv, switches));
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = issue?.path[0];
    throw new Error(`${path === undefined ? "" : `--${String(path)}: `}${issue?.message ?? "invalid"}`);
  }
  return result.data;
}

const directory = z.string().min(1, "needs a directory");

export function parseBackupArgs(argv: readonly string[]): { readonly to: string } {
  return parse(z.strictObject({ to: directory }), argv);
}

export interface RestoreArgs {
  /** The backup to restore into DATA_DIR; absent: apply `erasuresFrom` to DATA_DIR as it is. */
  readonly from: string | null;
  readonly erasuresFrom: string | null;
  readonly kekFrom: string | null;
}

export function parseRestoreArgs(argv: readonly string[]): RestoreArgs {
  const args = parse(
    z.strictObject({
      from: directory.optional(),
      "erasures-from": directory.optional(),
      "kek-from": z.string().min(1).optional(),
    }),
    argv,
  );
  if (args.from === undefined && args["erasures-from"] === undefined)
    throw new Error("give --from BACKUP_DIR, --erasures-from OLD_DATA_DIR, or both");
  if (args.from === undefined && args["kek-from"] !== undefined) throw new Error("--kek-from: only with --from");
  return { from: args.from ?? null, erasuresFrom: args["erasures-from"] ?? null, kekFrom: args["kek-from"] ?? null };
}

export type ProjectionsArgs =
  | { readonly action: "list" }
  | { readonly action: "retry" }
  | { readonly action: "skip"; readonly eventId: string; readonly projection: ProjectionName | null };

export function parseProjectionsArgs(argv: readonly string[]): ProjectionsArgs {
  const args = parse(
    z.strictObject({
      list: z.literal(true).optional(),
      retry: z.literal(true).optional(),
      skip: z.string().min(1).optional(),
      projection: z.enum(PROJECTION_NAMES).optional(),
    }),
    argv,
    ["list", "retry"],
  );
  const actions = [args.list, args.retry, args.skip].filter((given) => given !== undefined).length;
  if (actions !== 1) throw new Error("give one of --list, --retry or --skip EVENT_ID");
  if (args.projection !== undefined && args.skip === undefined) throw new Error("--projection: only with --skip");
  if (args.skip !== undefined) return { action: "skip", eventId: args.skip, projection: args.projection ?? null };
  return args.list ? { action: "list" } : { action: "retry" };
}
