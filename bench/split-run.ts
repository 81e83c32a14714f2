// `npm run bench:split [-- --duration S] [--connections C] [--pages N]`: the split rows on their own (the command
// API and one, then two query nodes behind nginx), with what each failed request was. Seeds a small workspace,
// builds its read models with the all-in-one server, then drives the split over the same files.
import { mkdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { SqliteEventStore } from "../shared/adapters/sqlite/sqlite.event-store.ts";
import { mintSession } from "../shared/auth/session-verifier.ts";
import { failedText, load } from "./http-load.ts";
import { startChild } from "./processes.ts";
import { fmt } from "./report.ts";
import { seedWorkspace, type SeedUser } from "./seed.ts";
import { benchSplitReads } from "./split.ts";

const SECRET = "benchmark-session-secret-long-enough-for-hs256";
const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { duration: { type: "string" }, connections: { type: "string" }, pages: { type: "string" } },
});
const options = z
  .object({
    duration: z.coerce.number().int().min(1).max(120),
    connections: z.coerce.number().int().min(1).max(500),
    pages: z.coerce.number().int().min(10),
  })
  .parse({ duration: values.duration ?? 5, connections: values.connections ?? 50, pages: values.pages ?? 1_000 });
const log = (line: string) => process.stderr.write(`[bench:split] ${line}\n`);
const workDir = await mkdtemp(join(tmpdir(), "split-bench-"));
try {
  const dataDir = join(workDir, "data");
  mkdirSync(dataDir);
  const store = new SqliteEventStore(join(dataDir, "events.sqlite"));
  const seeded = await seedWorkspace(store, options.pages);
  await store.close();
  const env = { DATA_DIR: dataDir, AUTH_SESSION_SECRET: SECRET, LOG_LEVEL: "warn" };
  // The split has no projector here: the all-in-one server builds the read models once.
  await (await startChild("services/all-in-one.ts", env, "/readyz")).stop();
  const cookieFor = async (user: SeedUser | undefined): Promise<Record<string, string>> =>
    user
      ? {
          cookie: `app-auth.session_token=${await mintSession(SECRET, { sub: user.id, email: user.email, name: user.name })}`,
        }
      : {};
  // The sample title is page 7's and the 10 KB page is page 0's; each belongs to the owner of its index.
  const figures = await benchSplitReads({
    env,
    run: (label, url, headers) => {
      log(`load: ${label} for ${options.duration} s at ${options.connections} connections`);
      return load({ url, connections: options.connections, durationSeconds: options.duration, headers });
    },
    resolvePath: `/api/v1/pages/resolve?title=${encodeURIComponent(seeded.sampleTitle)}`,
    resolveHeaders: await cookieFor(seeded.owners[7]),
    contentPath: `/api/v1/pages/${seeded.tenKilobytePageId}/content`,
    contentHeaders: await cookieFor(seeded.owners[0]),
  });
  if (figures === null) throw new Error("nginx is not installed");
  for (const s of figures) {
    for (const [name, f] of [
      ["GET /pages/resolve", s.resolve],
      ["GET /pages/{id}/content", s.content],
    ] as const) {
      process.stdout.write(
        `${s.queryNodes} query node(s), ${name}: ${fmt(f.requestsPerSecond)} req/s, p99 ${fmt(f.p99Ms)} ms, ${failedText(f)}\n`,
      );
    }
  }
} finally {
  await rm(workDir, { recursive: true, force: true });
}
