// Read model of history: a per-entity change log the projector writes, one row per event of a page, folder
// or thread stream and per grant on a page or folder. Rows keep the event as recorded (upcast to its current
// shape), never a copy of the page per revision: a read "as of" an instant folds the page's events as the
// command side folds its stream. Each row also keeps its change's summary, computed once when projected, so
// history pages and the change feed read only the rows they return and never the events' markdown.
import type { DomainEvent } from "../events.ts";
import { z } from "zod";
import { grantablePermissionSchema } from "../kernel/permissions.ts";
import { pageEventSchemas } from "../pages/page.decider.ts";
import type { StoredChange, Summary } from "./change-summary.ts";
import type { Instant } from "./instant.ts";

export type HistoryEntityKind = "page" | "folder" | "thread" | "group";

/**
 * Whose permission decides who may see an entry: a thread's entries are seen by those who can view its page; a
 * group's by those who manage its workspace (`id` is the workspace owner's) and by the group's members.
 */
export interface HistoryAccess {
  readonly kind: "page" | "folder" | "workspace";
  readonly id: string;
}

/** What every entry of the history says besides its content: where it stands, whose it is, who did it. */
interface HistoryFacts {
  /** Global position of the event: the entry's id, its cursor and an instant for `?at=`. */
  readonly position: number;
  readonly entityKind: HistoryEntityKind;
  readonly entityId: string;
  readonly access: HistoryAccess;
  readonly occurredAt: string;
  readonly actorId: string;
  /** The API token the actor acted through; null for a browser session (or an event recorded before tokens were). */
  readonly tokenId?: string | null;
  readonly correlationId: string;
}

export interface HistoryEntry extends HistoryFacts {
  readonly event: DomainEvent;
}

/** An entry as history pages and the change feed read it: its summary instead of its event. */
export interface HistoryChange extends HistoryFacts {
  /** The event's type. */
  readonly type: string;
  readonly change: StoredChange;
  /** A grant or revocation: shown only to those who may share the entity. */
  readonly sharing: boolean;
}

/** One page of an entity's changes: `from` is an exclusive position cursor in the asked order. */
export interface ChangesPage {
  readonly order: "asc" | "desc";
  readonly from: number | null;
  readonly limit: number;
  /** Whether grants and revocations are included (for those who may share). */
  readonly withSharing: boolean;
}

/** What an entity's entries so far leave it as, minus its markdown: where its latest content was recorded. */
export const storedFoldSchema = z.object({
  title: z.string().nullable(),
  icon: z.string().nullable(),
  parentId: z.string().nullable(),
  grants: z.record(z.string(), grantablePermissionSchema),
  /** Position of the entry that holds the entity's current markdown (null: it has none). */
  contentAt: z.number().int().nullable(),
  /**
   * Position of the last entry folded in. A batch applied again after a crash (MongoDB without a replica set
   * keeps what was written before it) finds its entries already folded and leaves their rows as recorded.
   */
  upTo: z.number().int(),
});
export type StoredFold = z.infer<typeof storedFoldSchema>;

/** The page's own event types: a page as of an instant is folded from the latest entry of each. */
export const PAGE_EVENT_TYPES = pageEventSchemas.map((schema) => schema.shape.type.value);
const pageEventTypes: ReadonlySet<string> = new Set(PAGE_EVENT_TYPES);

/** Whether the entry is one of its page's own events: the entries whose stored count says how many the page had. */
export const countsPageEvents = (entry: HistoryEntry): boolean =>
  entry.entityKind === "page" && pageEventTypes.has(entry.event.type);

export interface HistoryView {
  /** Up to `limit` of one entity's changes in the asked order, past the cursor: reads only those rows. */
  changesOf(entityId: string, page: ChangesPage): Promise<HistoryChange[]>;
  /** The entity's first entry (a page's PageCreated): where a deleted page stood. */
  firstEntryOf(entityId: string): Promise<HistoryEntry | null>;
  /**
   * What a page's state at an instant is folded from, without reading every revision: the latest entry of each
   * page event type up to the instant (oldest first), and how many page entries there were up to it. Each page
   * event sets its fields outright, so folding these gives the same title, icon, content and status as folding
   * them all (test/domain/history.test.ts checks it); the count gives the revision.
   */
  pageStateAt(pageId: string, instant: Instant): Promise<{ entries: HistoryEntry[]; count: number }>;
  /** Changes of every entity after `afterPosition`, oldest first, at most `limit`: what the change feed follows. */
  changesAfter(afterPosition: number, limit: number): Promise<HistoryChange[]>;
}

export interface HistoryWriter<Tx> {
  record(tx: Tx, entry: HistoryEntry, summary: Summary): Promise<void>;
  /** Whose permission covers an entity already recorded (a thread's page), as the batch sees it. */
  accessOf(tx: Tx, entityId: string): Promise<HistoryAccess | null>;
  /** The entity's fold as last stored (null before its first entry), as the batch sees it. */
  foldOf(tx: Tx, entityId: string): Promise<StoredFold | null>;
  /** Stores folds, once per entity per batch. */
  putFolds(tx: Tx, folds: ReadonlyMap<string, StoredFold>): Promise<void>;
  /** The markdown an entry recorded (PageCreated, PageContentReplaced, PageRestored), as the batch sees it. */
  markdownAt(tx: Tx, position: number): Promise<string | null>;
  /** These entities were purged: their entries and folds go (the change feed no longer shows them either). */
  forget(tx: Tx, entityIds: readonly string[]): Promise<void>;
}
