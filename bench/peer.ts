// The appends peer, Emmett's SQLite event store, is installed on first use rather than by `npm ci`: it pulls in
// the `sqlite3` package, whose native build is most of a fresh install's time, and only the benchmark needs it.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

/** Versions the recorded figures were measured with. */
const PEER_PACKAGES = ["@event-driven-io/emmett@0.38.5", "@event-driven-io/emmett-sqlite@0.38.5", "sqlite3@5.1.7"];
const PEER_MODULE = "@event-driven-io/emmett-sqlite";

interface EmmettStore {
  appendToStream(
    stream: string,
    events: ReadonlyArray<{ type: string; data: Record<string, unknown> }>,
  ): Promise<unknown>;
}

type GetStore = (options: { fileName: string; schema: { autoMigration: "CreateOrUpdate" } }) => EmmettStore;

const hasGetStore = (module: unknown): module is { getSQLiteEventStore: GetStore } =>
  typeof module === "object" &&
  module !== null &&
  "getSQLiteEventStore" in module &&
  typeof module.getSQLiteEventStore === "function";

async function load(): Promise<unknown> {
  // A specifier in a variable: the project type-checks without the peer installed.
  const specifier: string = PEER_MODULE;
  return import(specifier);
}

/** After installing in this process: by file URL, since the failed bare specifier stays failed here. */
async function loadInstalled(): Promise<unknown> {
  return import(pathToFileURL(createRequire(import.meta.url).resolve(PEER_MODULE)).href);
}

/** Emmett's getSQLiteEventStore, installing the peer (without touching package.json) the first time. */
export async function emmettPeer(log: (line: string) => void): Promise<GetStore | null> {
  let module = await load().catch(() => null);
  if (module === null) {
    log(`installing the appends peer once: ${PEER_PACKAGES.join(", ")} (not part of npm ci)`);
    const installed = spawnSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", ...PEER_PACKAGES], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    if (installed.status !== 0) return null;
    module = await loadInstalled().catch(() => null);
  }
  return hasGetStore(module) ? module.getSQLiteEventStore : null;
}
