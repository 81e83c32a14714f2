// "export of a 10,000-page workspace": GET /exports/obsidian of one owner's workspace (folders four deep, pages
// of 2–20 KB linking to each other) from a server of its own, read as it streams and counted, never held. The
// server's resident memory is sampled while it exports: what the export adds over the idle server is the
// figure (the peak since the process started would count the projection of the seeded pages).
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteEventStore } from "../shared/adapters/sqlite/sqlite.event-store.ts";
import { mintSession } from "../shared/auth/session-verifier.ts";
import { toNewEvents } from "../shared/commands/new-events.ts";
import type { DomainEvent } from "../shared/events.ts";
import { pageIdSchema, userIdSchema } from "../shared/kernel/ids.ts";
import { appendFolderTree } from "./folder-tree.ts";
import { startChild } from "./processes.ts";

export interface ExportFigures {
  readonly pages: number;
  readonly seconds: number;
  readonly pagesPerSecond: number;
  readonly zipMb: number;
  readonly status: number;
  readonly idleMb: number;
  readonly peakMb: number;
}

const PARAGRAPH =
  "The plan lists goals, owners and risks, and links the pages where the details live. Decisions are kept with their date.\n\n";

async function seed(dataDir: string, pages: number, owner: { id: string; email: string }): Promise<string> {
  const store = new SqliteEventStore(join(dataDir, "events.sqlite"));
  const actorId = userIdSchema.parse(owner.id);
  const append = (stream: string, events: DomainEvent[]) =>
    store.append(stream, toNewEvents(events, { actorId, correlationId: randomUUID(), now: new Date() }), "no_stream");
  await append(`email-${owner.email}`, [{ type: "EmailReserved", data: { email: owner.email, userId: actorId } }]);
  await append(`user-${owner.id}`, [
    { type: "UserRegistered", data: { userId: actorId, email: owner.email, name: "Exporter", image: null } },
  ]);
  const folders = (await appendFolderTree(actorId, (folderId, event) => append(`folder-${folderId}`, [event]))).map(
    (folder) => folder.folderId,
  );
  const ids = Array.from({ length: pages }, () => pageIdSchema.parse(randomUUID()));
  for (const [index, pageId] of ids.entries()) {
    const title = `Quarterly plan ${index}`;
    const linked = ids[(index * 7 + 1) % pages] ?? pageId;
    const body = PARAGRAPH.repeat(Math.ceil((2_048 + ((index * 2_654_435_761) % 18_432)) / PARAGRAPH.length));
    const markdown = `# ${title}\n\nSee [Quarterly plan ${(index * 7 + 1) % pages}](/api/v1/pages/${linked}#goals).\n\n${body}`;
    const parentId = index % 10 === 0 ? null : (folders[index % folders.length] ?? null);
    await append(`page-${pageId}`, [
      {
        type: "PageCreated",
        data: { pageId, ownerId: actorId, parentId, title, icon: index % 3 === 0 ? "📄" : null, markdown },
      },
    ]);
  }
  await store.close();
  return ids.at(-1) ?? "";
}

export async function benchExport(options: {
  secret: string;
  pages: number;
  log: (line: string) => void;
}): Promise<ExportFigures> {
  const dataDir = await mkdtemp(join(tmpdir(), "workspace-bench-export-"));
  const owner = { id: randomUUID(), email: "exporter@bench.example" };
  try {
    options.log(`export: seeding ${options.pages} pages of one owner`);
    const lastPageId = await seed(dataDir, options.pages, owner);
    const server = await startChild(
      "services/all-in-one.ts",
      { DATA_DIR: dataDir, AUTH_SESSION_SECRET: options.secret, LOG_LEVEL: "warn" },
      "/readyz",
    );
    try {
      const cookie = `app-auth.session_token=${await mintSession(options.secret, { sub: owner.id, email: owner.email, name: "Exporter" })}`;
      // Ready can answer within bounds of the head: wait until the last seeded page is readable.
      for (
        let deadline = Date.now() + 600_000;
        (await fetch(`${server.url}/api/v1/pages/${lastPageId}`, { headers: { cookie } })).status !== 200;
      ) {
        if (Date.now() > deadline) throw new Error("the seeded pages were not projected in time");
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const rssMb = (): number =>
        Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.process.pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
      const idleMb = rssMb();
      let peakMb = idleMb;
      const sampler = setInterval(() => {
        peakMb = Math.max(peakMb, rssMb());
      }, 50);
      options.log("export: GET /exports/obsidian");
      const started = performance.now();
      const response = await fetch(`${server.url}/api/v1/exports/obsidian`, { headers: { cookie } });
      let bytes = 0;
      for await (const chunk of response.body ?? []) bytes += (chunk as Uint8Array).length;
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      peakMb = Math.max(peakMb, rssMb());
      return {
        pages: options.pages,
        seconds,
        pagesPerSecond: options.pages / seconds,
        zipMb: bytes / 1e6,
        status: response.status,
        idleMb,
        peakMb,
      };
    } finally {
      await server.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
