// Command-line arguments of the operator tools (replay, audit), parsed by zod: a bad value stops the tool with
// a message naming the flag.
import { z } from "zod";
import { instantSchema, type Instant } from "../../shared/history/instant.ts";

function flags(argv: readonly string[]): Record<string, string> {
  const parsed: Record<string, string> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i] ?? "";
    if (!flag.startsWith("--")) throw new Error(`unexpected argument ${JSON.stringify(flag)}`);
    const value = argv[i + 1];
    if (value === undefined || value.startsWith("--")) throw new Error(`${flag}: needs a value`);
    parsed[flag.slice(2)] = value;
    i += 1;
  }
  return parsed;
}

function parse<T extends z.ZodType>(schema: T, argv: readonly string[]): z.infer<T> {
  const result = schema.safeParse(flags(argv));
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`--${String(issue?.path[0] ?? "?")}: ${issue?.message ?? "invalid"}`);
  }
  return result.data;
}

export interface ReplayArgs {
  /** Replay only the history up to this instant, into a separate store for audit; the whole history when absent. */
  readonly until: Instant | null;
  /** Where a point-in-time replay writes its read models; a file under DATA_DIR/audit when absent. */
  readonly out: string | null;
}

export function parseReplayArgs(argv: readonly string[]): ReplayArgs {
  const args = parse(z.strictObject({ until: instantSchema.optional(), out: z.string().min(1).optional() }), argv);
  if (args.out !== undefined && args.until === undefined)
    throw new Error("--out: only with --until (a full replay rebuilds DATA_DIR's read models)");
  return { until: args.until ?? null, out: args.out ?? null };
}

export function parseAuditArgs(argv: readonly string[]): { readonly entity: string } {
  return parse(z.strictObject({ entity: z.uuid("must be the id of a page, folder or thread") }), argv);
}

export type EraseArgs =
  { readonly user: string } | { readonly email: string } | { readonly page: string } | { readonly folder: string };

/** `--user ID`, `--email ADDRESS`, `--page ID` or `--folder ID`, exactly one. */
export function parseEraseArgs(argv: readonly string[]): EraseArgs {
  const args = parse(
    z.strictObject({
      user: z.uuid("must be a user id").optional(),
      email: z.string().min(3).optional(),
      page: z.uuid("must be a page id").optional(),
      folder: z.uuid("must be a folder id").optional(),
    }),
    argv,
  );
  const given = [
    args.user === undefined ? null : { user: args.user },
    args.email === undefined ? null : { email: args.email },
    args.page === undefined ? null : { page: args.page },
    args.folder === undefined ? null : { folder: args.folder },
  ].filter((one) => one !== null);
  const [only] = given;
  if (given.length === 1 && only) return only;
  throw new Error("give one of --user ID, --email ADDRESS, --page ID or --folder ID");
}
