// What every part of the read-store contract shares: the stores under test, opened fresh for each case, and
// records made with increasing positions and timestamps.
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach } from "vitest";
import { schemaVersionOf } from "../../../shared/event-store/upcasters.ts";
import { domainEventSchema, type DomainEvent, type StoredEvent } from "../../../shared/events.ts";
import type { FolderRecord } from "../../../shared/folders/folders.view.ts";
import type { PageRecord } from "../../../shared/pages/page-record.ts";
import type { ProjectionStore, ReadStore } from "../../../shared/read-store/read-store.port.ts";

/**
 * What a newer release does to the same storage, for the layout cases: lays the read models out in its own
 * (newer) layout, as its replay does when it switches over; and opening this release's projection store again.
 */
interface NewerRelease<Tx> {
  layOut(): Promise<void>;
  openProjection(): Promise<ProjectionStore<Tx>>;
}

export type ReadStoreFactory<Tx> = () => Promise<{
  projection: ProjectionStore<Tx>;
  reader: ReadStore;
  cleanup: () => Promise<void>;
  newerRelease: NewerRelease<Tx>;
}>;

/** The last position handed out; read live by the cases. */
export let position = 0;
export const at = () => {
  position += 1;
  return { updatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, position)).toISOString(), updatedPosition: position };
};

/** Events of one stream, each at the next position and second, as the store would hand them to the projector. */
export function storedStream<E extends DomainEvent>(name: string, events: readonly E[]): StoredEvent<E>[] {
  return events.map((event, revision) => {
    const when = at();
    return {
      id: randomUUID(),
      stream: name,
      revision,
      position: when.updatedPosition,
      metadata: {
        actorId: randomUUID(),
        correlationId: randomUUID(),
        causationId: null,
        occurredAt: when.updatedAt,
        schemaVersion: 1,
      },
      event,
    };
  });
}

/** One event as the log would hold it, by `actorId`: validated by its schema, at the next position. */
export function recordedBy(actorId: string, raw: unknown): StoredEvent {
  const event = domainEventSchema.parse(raw);
  const { updatedAt, updatedPosition } = at();
  const metadata = {
    actorId,
    correlationId: randomUUID(),
    causationId: null,
    occurredAt: updatedAt,
    schemaVersion: schemaVersionOf(event.type),
  };
  return {
    id: randomUUID(),
    stream: `contract-${randomUUID()}`,
    revision: 0,
    position: updatedPosition,
    metadata,
    event,
  };
}

export function folder(ownerId: string, parent: FolderRecord | null = null): FolderRecord {
  const when = at();
  return {
    id: randomUUID(),
    ownerId,
    parentId: parent?.id ?? null,
    name: `f${when.updatedPosition}`,
    icon: null,
    ancestorIds: parent ? [parent.id, ...parent.ancestorIds] : [],
    path: parent ? `${parent.path}/f` : "f",
    createdAt: when.updatedAt,
    ...when,
  };
}

export function page(ownerId: string, parent: FolderRecord | null = null, title = "Page"): PageRecord {
  const when = at();
  return {
    id: randomUUID(),
    ownerId,
    parentId: parent?.id ?? null,
    title,
    icon: null,
    ancestorIds: parent ? [parent.id, ...parent.ancestorIds] : [],
    folderPath: parent?.path ?? "",
    createdAt: when.updatedAt,
    revision: 0,
    ...when,
  };
}

/** A caller who sees exactly one owner's workspace. */
export const everyone = (ownerId: string) => ({ ownerIds: [ownerId], pageIds: [], folderIds: [] });

export interface ContractStores<Tx> {
  readonly projection: ProjectionStore<Tx>;
  readonly reader: ReadStore;
  /** Applies one batch at the position after the last one handed out. */
  batch(work: (tx: Tx) => Promise<void>): Promise<void>;
  w(): ProjectionStore<Tx>["writers"];
  newerRelease(): NewerRelease<Tx>;
}

/** Registers the hooks that open fresh stores before each case and close them after it. */
export function contractStores<Tx>(factory: ReadStoreFactory<Tx>): ContractStores<Tx> {
  let opened: Awaited<ReturnType<ReadStoreFactory<Tx>>> | null = null;
  beforeEach(async () => {
    opened = await factory();
  });
  afterEach(async () => {
    await opened?.cleanup();
    opened = null;
  });
  const current = () => {
    if (!opened) throw new Error("the read-store contract's stores are open only inside a case");
    return opened;
  };
  return {
    get projection() {
      return current().projection;
    },
    get reader() {
      return current().reader;
    },
    batch: (work) => current().projection.applyBatch(position + 1, work),
    w: () => current().projection.writers,
    newerRelease: () => current().newerRelease,
  };
}
