// The main table's workspace: a seeded event log (many owners' pages, a reader with access to some of them, a page
// of 1,000 revisions) served by the all-in-one server in its own process, with the reader's grants and
// memberships given through the public API.
import { join } from "node:path";
import { SqliteEventStore } from "../../shared/adapters/sqlite/sqlite.event-store.ts";
import { userIdSchema } from "../../shared/kernel/ids.ts";
import { seedRevisedPage } from "../history.ts";
import { startChild, type Child } from "../processes.ts";
import { grantReaderAccess, sessionCookie } from "../reader-access.ts";
import { fmt } from "../report.ts";
import { seedWorkspace, type Seeded, type SeedUser } from "../seed.ts";
import type { TableRun } from "./table-run.ts";

export interface ServedWorkspace {
  readonly seeded: Seeded;
  /** The page of 1,000 revisions, and a position in the middle of them. */
  readonly revised: { pageId: string; midPosition: number };
  readonly server: Child;
  readonly api: string;
  readonly grantsApplied: number;
  readonly readerCookie: string;
  /** A session of the first owner, who owns the 10 KB page and the page of 1,000 revisions. */
  readonly ownerCookie: string;
}

export async function serveSeededWorkspace(run: TableRun): Promise<ServedWorkspace> {
  const { options, log, dataDir } = run;
  const cookieFor = (user: SeedUser) => sessionCookie(run.secret, user);

  log(`seeding ${fmt(options.pages)} pages`);
  const seedStore = new SqliteEventStore(join(dataDir, "events.sqlite"));
  const seedStarted = performance.now();
  const seeded = await seedWorkspace(seedStore, options.pages, (done) => log(`  seeded ${fmt(done)} pages`));
  const revised = await seedRevisedPage(seedStore, userIdSchema.parse(seeded.owners[0]?.id ?? seeded.reader.id), 1_000);
  await seedStore.close();
  log(
    `seeded ${fmt(seeded.events)} events in ${fmt((performance.now() - seedStarted) / 1000, 1)} s; starting the server`,
  );

  const projectionStarted = performance.now();
  const profileArgs = options.profile ? ["--cpu-prof", "--cpu-prof-dir=bench/profiles"] : [];
  const server = await startChild(
    "services/all-in-one.ts",
    { DATA_DIR: dataDir, AUTH_SESSION_SECRET: run.secret, LOG_LEVEL: "warn" },
    "/readyz",
    profileArgs,
  );
  const api = `${server.url}/api/v1`;
  log(`server up and caught up in ${fmt((performance.now() - projectionStarted) / 1000, 1)} s`);

  // Access for the reader: 20 folder grants and membership in 3 workspaces, through the public API.
  const grantsApplied = await grantReaderAccess(api, run.secret, seeded);
  log(`reader access: ${grantsApplied} of 23 grants and memberships applied`);
  const readerCookie = await cookieFor(seeded.reader);
  const visible = await fetch(`${api}/pages?limit=1`, { headers: { cookie: readerCookie } });
  log(`reader sees pages: ${visible.status}`);
  const ownerCookie = await cookieFor(seeded.owners[0] ?? seeded.reader);
  return { seeded, revised, server, api, grantsApplied, readerCookie, ownerCookie };
}
