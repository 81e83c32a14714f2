// Read model of history: a per-entity change log the projector writes, one row per event of a page, folder
// or thread stream and per grant on a page or folder. Rows keep the event as recorded (upcast to its current
// shape), never a copy of the page per revision: a read "as of" an instant folds the page's events as the
// command side folds its stream, and history and the change feed describe the same rows for clients.
import type { DomainEvent } from "../events.ts";
import type { Instant } from "./instant.ts";

export type HistoryEntityKind = "page" | "folder" | "thread";

/** Whose permission decides who may see an entry: a thread's entries are seen by those who can view its page. */
export interface HistoryAccess {
  readonly kind: "page" | "folder";
  readonly id: string;
}

export interface HistoryEntry {
  /** Global position of the event: the entry's id, its cursor and an instant for `?at=`. */
  readonly position: number;
  readonly entityKind: HistoryEntityKind;
  readonly entityId: string;
  readonly access: HistoryAccess;
  readonly occurredAt: string;
  readonly actorId: string;
  readonly correlationId: string;
  readonly event: DomainEvent;
}

export interface HistoryView {
  /** Every entry of one entity, oldest first, up to `untilPosition` (inclusive) when given. */
  entriesOf(entityId: string, untilPosition?: number): Promise<HistoryEntry[]>;
  /**
   * What a page's state at an instant is folded from, without reading every revision: the latest entry of each
   * page event type up to the instant (oldest first), and how many page entries there were up to it. Each page
   * event sets its fields outright, so folding these gives the same title, icon, content and status as folding
   * them all (test/domain/history.test.ts checks it); the count gives the revision.
   */
  pageStateAt(pageId: string, instant: Instant): Promise<{ entries: HistoryEntry[]; count: number }>;
  /** Entries of every entity after `afterPosition`, oldest first, at most `limit`: what the change feed follows. */
  entriesAfter(afterPosition: number, limit: number): Promise<HistoryEntry[]>;
}

export interface HistoryWriter<Tx> {
  record(tx: Tx, entry: HistoryEntry): Promise<void>;
  /** Whose permission covers an entity already recorded (a thread's page), as the batch sees it. */
  accessOf(tx: Tx, entityId: string): Promise<HistoryAccess | null>;
}
