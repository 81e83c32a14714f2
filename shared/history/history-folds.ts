// The history projection's memory within one batch: each entity's fold, read from the read model at most once
// per batch and written back once, when the batch ends, so a replay summarising thousands of changes pays one
// fold read and one fold write per entity per batch rather than per event. A content change needs the
// markdown it replaced: kept here while the batch lasts (within a bound), else read from the entry that
// recorded it.
import type { DomainEvent } from "../events.ts";
import { emptyFold, summarise, type Fold } from "./describe-history.ts";
import type { Summary } from "./change-summary.ts";
import type { HistoryEntry, HistoryWriter, StoredFold } from "./history.view.ts";

/** Markdown held in memory per batch, in characters; past it, held texts are dropped and read again on need. */
const HELD_MARKDOWN_CHARS = 16_000_000;

interface Held {
  readonly fold: Fold;
  /** Whether `fold.markdown` is the entity's current markdown (false: read it from `contentAt` on need). */
  markdownHeld: boolean;
  contentAt: number | null;
  upTo: number;
}

const contentOf = (event: DomainEvent): string | null =>
  event.type === "PageCreated" || event.type === "PageContentReplaced" || event.type === "PageRestored"
    ? event.data.markdown
    : null;

const needsMarkdown = (event: DomainEvent): boolean =>
  event.type === "PageContentReplaced" || event.type === "PageRestored";

export class HistoryFolds<Tx> {
  private readonly held = new Map<string, Held>();
  private heldChars = 0;

  constructor(
    private readonly writer: HistoryWriter<Tx>,
    private readonly tx: Tx,
  ) {}

  /**
   * The entry's summary against its entity's fold, which it then advances; null when the fold already holds
   * the entry (its batch is applied again after a crash, and its row was recorded with the right summary).
   */
  async summarise(entry: HistoryEntry): Promise<Summary | null> {
    // A thread's and a group's changes are described by their own events alone: no fold to keep.
    if (entry.entityKind === "thread" || entry.entityKind === "group") return summarise(entry, emptyFold());
    const held = await this.heldFor(entry.entityId);
    if (entry.position <= held.upTo) return null;
    if (needsMarkdown(entry.event) && !held.markdownHeld) {
      held.fold.markdown = held.contentAt === null ? null : await this.writer.markdownAt(this.tx, held.contentAt);
    }
    const summary = summarise(entry, held.fold);
    held.upTo = entry.position;
    const content = contentOf(entry.event);
    if (content !== null) {
      held.contentAt = entry.position;
      this.hold(held, content);
    }
    return summary;
  }

  /** These entities were purged: their folds are not written back at the end of the batch. */
  forget(entityIds: readonly string[]): void {
    for (const entityId of entityIds) {
      const held = this.held.get(entityId);
      if (held?.markdownHeld && held.fold.markdown !== null) this.heldChars -= held.fold.markdown.length;
      this.held.delete(entityId);
    }
  }

  /** Writes every fold the batch changed; called once, after the batch's last event. */
  async flush(): Promise<void> {
    if (this.held.size === 0) return;
    const folds = new Map<string, StoredFold>();
    for (const [entityId, { fold, contentAt, upTo }] of this.held) {
      folds.set(entityId, {
        title: fold.title,
        icon: fold.icon,
        parentId: fold.parentId,
        grants: Object.fromEntries(fold.grants),
        contentAt,
        upTo,
      });
    }
    await this.writer.putFolds(this.tx, folds);
  }

  private async heldFor(entityId: string): Promise<Held> {
    const known = this.held.get(entityId);
    if (known) return known;
    const stored = await this.writer.foldOf(this.tx, entityId);
    const fold = emptyFold();
    if (stored) {
      Object.assign(fold, { title: stored.title, icon: stored.icon, parentId: stored.parentId });
      for (const [userId, permission] of Object.entries(stored.grants)) fold.grants.set(userId, permission);
    }
    const held: Held = {
      fold,
      markdownHeld: !stored || stored.contentAt === null,
      contentAt: stored?.contentAt ?? null,
      upTo: stored?.upTo ?? 0,
    };
    this.held.set(entityId, held);
    return held;
  }

  private hold(held: Held, markdown: string): void {
    if (this.heldChars + markdown.length > HELD_MARKDOWN_CHARS) {
      for (const other of this.held.values()) {
        other.fold.markdown = null;
        other.markdownHeld = false;
      }
      this.heldChars = 0;
    }
    if (held.markdownHeld && held.fold.markdown !== null) this.heldChars -= held.fold.markdown.length;
    held.fold.markdown = markdown;
    held.markdownHeld = true;
    this.heldChars += markdown.length;
  }
}
