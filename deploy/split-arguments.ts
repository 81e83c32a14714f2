// The command line of `npm run split`, checked: how many query nodes, and which internal ports to pin (the
// rest are free ones). Wrong flags stop it with a message naming them.
import { parseArgs } from "node:util";
import { z } from "zod";

const port = z.coerce.number().int().min(1).max(65_535);

export interface SplitArguments {
  readonly queryNodes: number;
  readonly commandApiPort: number | null;
  /** Pinned ports of the first query nodes, in order; the others get free ones. */
  readonly queryApiPorts: readonly number[];
  readonly natsPort: number | null;
}

export function splitArguments(argv: readonly string[]): SplitArguments {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      "query-nodes": { type: "string" },
      "command-api-port": { type: "string" },
      "query-api-ports": { type: "string" },
      "nats-port": { type: "string" },
    },
    strict: true,
  });
  const schema = z.object({
    "query-nodes": z.coerce.number().int().min(1).max(16).default(2),
    "command-api-port": port.optional(),
    "query-api-ports": z
      .string()
      .regex(/^\d+(,\d+)*$/, "a comma-separated list of ports")
      .transform((list) => list.split(",").map(Number))
      .pipe(z.array(z.number().int().min(1).max(65_535)))
      .optional(),
    "nats-port": port.optional(),
  });
  const parsed = schema.safeParse(values);
  if (!parsed.success)
    throw new Error(
      `invalid arguments: ${parsed.error.issues.map((issue) => `--${issue.path.join(".")}: ${issue.message}`).join("; ")}`,
    );
  const queryApiPorts = parsed.data["query-api-ports"] ?? [];
  if (queryApiPorts.length > parsed.data["query-nodes"])
    throw new Error(
      `invalid arguments: --query-api-ports names ${queryApiPorts.length} ports for ${parsed.data["query-nodes"]} query nodes`,
    );
  return {
    queryNodes: parsed.data["query-nodes"],
    commandApiPort: parsed.data["command-api-port"] ?? null,
    queryApiPorts,
    natsPort: parsed.data["nats-port"] ?? null,
  };
}
