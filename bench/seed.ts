// Seeds an event store with a realistic workspace, straight through the EventStore port: owners with folder
// trees four deep, pages of 2–20 KB of markdown spread over them, and the benchmark's reader.
import { randomUUID } from "node:crypto";
import { toNewEvents } from "../shared/commands/new-events.ts";
import type { EventStore } from "../shared/event-store/event-store.port.ts";
import type { DomainEvent } from "../shared/events.ts";
import { pageIdSchema, userIdSchema, type FolderId, type UserId } from "../shared/kernel/ids.ts";
import { appendFolderTree } from "./folder-tree.ts";

export interface SeedUser {
  readonly id: UserId;
  readonly email: string;
  readonly name: string;
}

export interface Seeded {
  readonly reader: SeedUser;
  readonly owners: SeedUser[];
  /** One top-level folder per owner, to be shared with the reader. */
  readonly sharedFolders: Array<{ ownerId: UserId; folderId: FolderId }>;
  readonly sampleTitle: string;
  readonly tenKilobytePageId: string;
  readonly events: number;
}

const PARAGRAPH =
  "The quarterly plan covers hiring, the storage migration and the new onboarding flow. Each team lists its goals, owners and risks, " +
  "and links the pages where the details live. Decisions are recorded with their date and the people who made them.\n\n";

/** Deterministic pseudo-random numbers so two runs seed the same shape. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function markdown(bytes: number, title: string, extra = ""): string {
  const body = PARAGRAPH.repeat(Math.ceil(bytes / PARAGRAPH.length)).slice(0, bytes);
  return `# ${title}\n\n${extra}${body}`;
}

/** Words for the search figures: one in every 50th page (a selective query), one only in the last owner's pages. */
export const SEARCH_WORDS = {
  selective: "zeppelin",
  phrase: "zeppelin rollout",
  onlyInvisible: "quokka",
  absent: "xylograph",
} as const;

export async function seedWorkspace(
  store: EventStore,
  pageCount: number,
  onProgress?: (done: number) => void,
): Promise<Seeded> {
  const next = random(42);
  const user = (label: string): SeedUser => ({
    id: userIdSchema.parse(randomUUID()),
    email: `${label}@bench.example`,
    name: label,
  });
  const reader = user("reader");
  const owners = Array.from({ length: 30 }, (_, i) => user(`owner-${i}`));
  let events = 0;
  const append = async (stream: string, domainEvents: DomainEvent[], actorId: UserId) => {
    await store.append(
      stream,
      toNewEvents(domainEvents, { actorId, correlationId: randomUUID(), now: new Date() }),
      "no_stream",
    );
    events += domainEvents.length;
  };
  for (const u of [reader, ...owners]) {
    await append(`email-${u.email}`, [{ type: "EmailReserved", data: { email: u.email, userId: u.id } }], u.id);
    await append(
      `user-${u.id}`,
      [{ type: "UserRegistered", data: { userId: u.id, email: u.email, name: u.name, image: null } }],
      u.id,
    );
  }

  // Each owner: 3 top-level folders, each with a chain of subfolders four levels deep and two branches.
  const foldersByOwner = new Map<UserId, FolderId[]>();
  const sharedFolders: Seeded["sharedFolders"] = [];
  for (const owner of owners) {
    const tree = await appendFolderTree(owner.id, (folderId, event) => append(`folder-${folderId}`, [event], owner.id));
    foldersByOwner.set(
      owner.id,
      tree.map((folder) => folder.folderId),
    );
    for (const { folderId, top, depth } of tree)
      if (depth === 0 && top === 0) sharedFolders.push({ ownerId: owner.id, folderId });
  }

  const sampleTitle = "Quarterly plan 7";
  let tenKilobytePageId = "";
  for (let i = 0; i < pageCount; i += 1) {
    const owner = owners[i % owners.length] ?? reader;
    const folders = foldersByOwner.get(owner.id) ?? [];
    const parentId = next() < 0.1 ? null : (folders[Math.floor(next() * folders.length)] ?? null);
    const size = i === 0 ? 10_240 : 2_048 + Math.floor(next() * 18_432);
    const pageId = pageIdSchema.parse(randomUUID());
    const title = i === 7 ? sampleTitle : `Quarterly plan ${i}`;
    // The reader never sees the last owner's pages (no grant, no membership): their word is an invisible hit.
    const extra = `${i % 50 === 0 ? "Notes on the zeppelin rollout. " : ""}${i % owners.length === owners.length - 1 ? "The quokka survey. " : ""}`;
    await append(
      `page-${pageId}`,
      [
        {
          type: "PageCreated",
          data: { pageId, ownerId: owner.id, parentId, title, icon: null, markdown: markdown(size, title, extra) },
        },
      ],
      owner.id,
    );
    if (i === 0) tenKilobytePageId = pageId;
    if (i % 5_000 === 0) onProgress?.(i);
  }
  return { reader, owners, sharedFolders: sharedFolders.slice(0, 20), sampleTitle, tenKilobytePageId, events };
}
