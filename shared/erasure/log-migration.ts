// Copy-and-transform of an event log written before sealing: every event of the source's global log, in order,
// appended through the sealing store to a new log with the same id, type, data, metadata and stream revision,
// its personal data and content sealed and its address streams renamed to their keyed hashes. Fields sealed
// already (events written since sealing existed) are copied as they are; a comment recorded before comments
// named their page is given its thread's page (thread-pages.ts), so it is sealed under that page's key. Batches are bounded by bytes, so the
// log is never held in memory. Resumable: the part of the target already written is first read beside the
// source and checked event by event (same ids, in the same order), and the copy continues after it, so a run
// cut short and run again doubles nothing, and a target that is not a copy of this source is refused.
import { MAX_APPEND_BYTES } from "../event-store/append-size.ts";
import { readAllBounded, type BatchBounds } from "../event-store/bounded-read.ts";
import type { EventStore, NewEvent, RecordedEvent } from "../event-store/event-store.port.ts";
import { erasesKeys, subjectsErasedBy, type ErasureLookup } from "./erasures-repeated.ts";
import type { KeyStore } from "./key-store.port.ts";
import { ThreadPages } from "./thread-pages.ts";

/** What the migration refuses to do, said to the operator as it is. */
export class LogMigrationError extends Error {}

export interface MigrationProgress {
  /** Events of the target, copied by this run or an earlier one. */
  readonly copied: number;
  /** The source position reached, and the source's head when the run started. */
  readonly position: number;
  readonly head: number;
}

export interface MigrationResult extends MigrationProgress {
  /** Events an earlier run had copied (checked, not copied again). */
  readonly alreadyCopied: number;
  /** Events that destroyed keys as they were copied (erasures recorded before sealing). */
  readonly erasures: number;
  /** False when `stopAfter` stopped the copy before the source's end. */
  readonly complete: boolean;
  /** The source's head when the copy ended: beyond `head`, the source was written during the run. */
  readonly headAtEnd: number;
}

export interface MigrationPorts {
  /** The old log as stored (no sealing store in front: envelopes stay envelopes). */
  readonly source: EventStore;
  /** The new log as stored, to read what an earlier run copied. */
  readonly target: EventStore;
  /** The new log through the sealing store (with `keepSealed`): where the copy appends. */
  readonly sealedTarget: EventStore;
  readonly keys: KeyStore;
  readonly addressHash: (address: string) => string;
}

export interface MigrationOptions {
  readonly bounds: BatchBounds;
  /** Stop once the target holds this many events (a copy in steps; tests of resumption). */
  readonly stopAfter?: number;
  readonly onProgress?: (progress: MigrationProgress) => void;
}

/** Reads a log's events one at a time, in batches bounded by `readAllBounded`. */
class LogCursor {
  private batch: RecordedEvent[] = [];
  private index = 0;
  private after = 0;
  private ended = false;

  constructor(
    private readonly store: EventStore,
    private readonly bounds: BatchBounds,
  ) {}

  async peek(): Promise<RecordedEvent | null> {
    if (this.index < this.batch.length) return this.batch[this.index] ?? null;
    if (this.ended) return null;
    this.batch = await readAllBounded(this.store, this.after, this.bounds);
    this.index = 0;
    const last = this.batch.at(-1);
    if (!last) {
      this.ended = true;
      return null;
    }
    this.after = last.position;
    return this.batch[0] ?? null;
  }

  async next(): Promise<RecordedEvent | null> {
    const event = await this.peek();
    if (event) this.index += 1;
    return event;
  }
}

/** The size an event is counted at toward one append. */
const weight = (event: RecordedEvent): number =>
  JSON.stringify(event.data ?? null).length + JSON.stringify(event.metadata).length;

/**
 * Several source events go in one append when they follow each other in one stream, as one command appended
 * them. Sealing makes a field about a third larger, so a group stays within half of what one append may hold.
 */
const GROUP_BYTES = MAX_APPEND_BYTES / 2;
const GROUP_EVENTS = 100;

const toNew = ({ id, type, data, metadata }: RecordedEvent): NewEvent => ({ id, type, data, metadata });

async function checkCopiedPrefix(source: LogCursor, target: LogCursor): Promise<number> {
  let copied = 0;
  for (let written = await target.next(); written !== null; written = await target.next()) {
    const original = await source.next();
    if (
      !original ||
      original.id !== written.id ||
      original.type !== written.type ||
      original.revision !== written.revision
    ) {
      throw new LogMigrationError(
        `the target log is not a copy of this source: its event ${copied + 1} (${written.type} ${written.id}) is not the source's` +
          `${original ? ` (${original.type} ${original.id})` : " (the source has no more events)"}; give an empty or new target`,
      );
    }
    copied += 1;
  }
  return copied;
}

export async function migrateLog(ports: MigrationPorts, options: MigrationOptions): Promise<MigrationResult> {
  const head = await ports.source.headPosition();
  const source = new LogCursor(ports.source, options.bounds);
  const alreadyCopied = await checkCopiedPrefix(source, new LogCursor(ports.target, options.bounds));
  const lookup: ErasureLookup = {
    readSource: async (stream) => (await ports.source.read(stream)).events,
    addressHash: ports.addressHash,
  };
  const threadPages = new ThreadPages(lookup.readSource);
  const limit = options.stopAfter ?? Number.POSITIVE_INFINITY;
  let copied = alreadyCopied;
  let erasures = 0;
  let position = 0;
  let reported = 0;

  const append = async (group: readonly RecordedEvent[]) => {
    const first = group[0];
    if (!first) return;
    const expected = first.revision === 0 ? "no_stream" : first.revision - 1;
    try {
      const upcast = await Promise.all(group.map((event) => threadPages.withPage(event)));
      await ports.sealedTarget.append(first.stream, upcast.map(toNew), expected);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new LogMigrationError(
        `copying ${first.stream} from revision ${first.revision} (event ${first.id}) failed: ${reason}`,
      );
    }
    copied += group.length;
    position = group[group.length - 1]?.position ?? position;
  };

  while (copied < limit) {
    const first = await source.next();
    if (!first) break;
    if (erasesKeys(first.type)) {
      for (const subject of await subjectsErasedBy(first, lookup)) await ports.keys.destroy(subject);
      erasures += 1;
      await append([first]);
    } else {
      const group = [first];
      let bytes = weight(first);
      for (
        let next = await source.peek();
        next && copied + group.length < limit && group.length < GROUP_EVENTS;
        next = await source.peek()
      ) {
        const last = group[group.length - 1];
        if (
          !last ||
          next.stream !== last.stream ||
          next.revision !== last.revision + 1 ||
          bytes + weight(next) > GROUP_BYTES
        )
          break;
        if (erasesKeys(next.type)) break;
        group.push(next);
        bytes += weight(next);
        await source.next();
      }
      await append(group);
    }
    if (options.onProgress && (copied - reported >= 1_000 || reported === 0)) {
      reported = copied;
      options.onProgress({ copied, position, head });
    }
  }
  const complete = (await source.peek()) === null;
  const headAtEnd = await ports.source.headPosition();
  options.onProgress?.({ copied, position: complete ? headAtEnd : position, head });
  return { copied, alreadyCopied, erasures, position, head, complete, headAtEnd };
}
