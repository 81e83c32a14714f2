// Which way imports point, through any chain, type-only imports included: the domain never reaches adapters or
// services; the query API never reaches the event store or the command side; MCP tools reach no HTTP route
// module. A chain that still breaks a rule is allowed only by its first import, listed with its reason; an
// allowance nothing needs any more fails too, so the list only shrinks.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { importChains, importGraph } from "../support/import-graph.ts";

const graph = importGraph(process.cwd(), "services", "shared");

/** shared/<capability>: everything in shared but the adapters and the HTTP server. */
const isDomain = (file: string): boolean =>
  file.startsWith("shared/") && !file.startsWith("shared/adapters/") && !file.startsWith("shared/http/");
/** Modules that bind a decider to its command handler (`*.commands.ts` and the like), and shared/commands itself. */
const bindsCommandHandler = new Set(
  [...graph]
    .filter(([, imports]) => imports.includes("shared/commands/decider-command-handler.ts"))
    .map(([file]) => file),
);
const isCommandSide = (file: string): boolean => file.startsWith("shared/commands/") || bindsCommandHandler.has(file);
/**
 * An event store or its machinery. Its port's types and the upcasters are part of the event union every reader
 * shares (shared/events.ts), so only a direct import of the port counts (below).
 */
const isEventStore = (file: string): boolean =>
  file.endsWith(".event-store.ts") ||
  file.endsWith("/sealing-event-store.ts") ||
  (file.startsWith("shared/event-store/") && !/\/(event-store\.port|upcasters)\.ts$/.test(file));
const isHttpRoute = (file: string): boolean => /^services\/(command|query)-api\/routes\//.test(file);

/** First imports of chains that still break a rule, each with why it stays for now. */
const allowed: Readonly<Record<string, string>> = {
  "shared/workers/pool.worker.ts -> shared/adapters/sqlite/page-search-rank.ts":
    "the worker thread's entry point runs a search's ranking on its own read-only connection to the read models' SQLite file, so that the statement never holds the event loop",
};

const rules = {
  domain: { from: isDomain, to: (file: string) => file.startsWith("shared/adapters/") || file.startsWith("services/") },
  queryApi: {
    from: (file: string) => file.startsWith("services/query-api/"),
    to: (file: string) => isEventStore(file) || isCommandSide(file),
  },
  mcp: { from: (file: string) => file.startsWith("services/mcp/"), to: isHttpRoute },
};
const chainsOf = (rule: keyof typeof rules): string[] => importChains(graph, rules[rule]);
const firstImport = (chain: string): string => chain.split(" -> ").slice(0, 2).join(" -> ");
const breaking = (chains: readonly string[]): string[] => chains.filter((chain) => !(firstImport(chain) in allowed));

describe("import direction", () => {
  it("the domain (shared/<capability>) imports no adapter and no service", () => {
    expect(breaking(chainsOf("domain"))).toEqual([]);
  });

  it("the query API reaches no event store and no command handler, and imports no event-store module", () => {
    expect(breaking(chainsOf("queryApi"))).toEqual([]);
    expect(
      importChains(graph, {
        ...rules.queryApi,
        to: (file) => file.startsWith("shared/event-store/"),
        through: () => false,
      }),
    ).toEqual([]);
  });

  it("MCP imports no HTTP route module, through any chain", () => {
    expect(breaking(chainsOf("mcp"))).toEqual([]);
  });

  it("allows only chains that still break a rule", () => {
    const needed = new Set([...chainsOf("domain"), ...chainsOf("queryApi"), ...chainsOf("mcp")].map(firstImport));
    expect(Object.keys(allowed).filter((first) => !needed.has(first))).toEqual([]);
  });

  it("finds the shortest chain to each forbidden file, through type-only imports, and not past the first", async () => {
    const base = await mkdtemp(join(tmpdir(), "import-direction-"));
    try {
      const files: Record<string, string> = {
        "core/rule.ts": 'import type { Row } from "./row.ts";\nexport const rule = (row: Row) => row;\n',
        "core/row.ts": 'import { db } from "../adapters/db.ts";\nexport type Row = typeof db;\n',
        "core/pure.ts": "export const pure = 1;\n",
        "adapters/db.ts": 'import { deeper } from "./deeper.ts";\nexport const db = deeper;\n',
        "adapters/deeper.ts": "export const deeper = 2;\n",
      };
      for (const [path, text] of Object.entries(files)) {
        await mkdir(join(base, dirname(path)), { recursive: true });
        await writeFile(join(base, path), text);
      }
      const chains = importChains(importGraph(base, "core", "adapters"), {
        from: (file) => file.startsWith("core/"),
        to: (file) => file.startsWith("adapters/"),
      });
      expect(chains).toEqual(["core/row.ts -> adapters/db.ts", "core/rule.ts -> core/row.ts -> adapters/db.ts"]);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
