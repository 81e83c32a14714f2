// An event store that keeps personal data out of the log in the clear, for every adapter: on append it seals
// the fields its type's rule names (sealed-fields.ts) under their subject's key and stores address-bearing
// streams under the address's keyed hash; on read it opens what it sealed, so deciders, projections and tools
// see plaintext. A field whose key was destroyed reads as its erased value. Events written before sealing
// existed hold plaintext, which passes through as it is, and an address stream stored under its plain name
// before hashing existed keeps being used under that name (until the copy-and-transform migration renames it:
// shared/erasure/log-migration.ts).
import { assertAppendSize } from "../event-store/append-size.ts";
import type {
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  StreamRead,
  Subscription,
  SubscriptionOptions,
  BatchHandler,
} from "../event-store/event-store.port.ts";
import { envelopeHeader, open, parseEnvelope, seal, type EnvelopeHeader, type ParsedEnvelope } from "./envelope.ts";
import type { KeyEncryptionKey } from "./key-encryption-key.ts";
import type { DataKey, KeyStore } from "./key-store.port.ts";
import { hashedStreamName, sealingRuleOf } from "./sealed-fields.ts";
import { subjectOf, type SealedField } from "./sealing-rule.ts";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A sealed field that would not open under its own key: altered in the store, never shown as anything. */
export class SealedFieldError extends Error {}

export class SealingEventStore implements EventStore {
  private readonly addressHash: (address: string) => string;

  constructor(
    private readonly inner: EventStore,
    private readonly keys: KeyStore,
    kek: KeyEncryptionKey,
    /**
     * `keepSealed`: a field that is already an envelope is stored as it is, not sealed again (the log migration
     * copies events sealed since sealing existed beside plaintext ones written before).
     */
    private readonly options: { closeKeys?: boolean; keepSealed?: boolean } = {},
  ) {
    this.addressHash = (address) => kek.addressHash(address);
  }

  /** Where an address stream is stored: its hashed name, or its plain name while only that exists. */
  private async storedName(stream: string): Promise<{ name: string; read: StreamRead | null }> {
    const hashed = hashedStreamName(stream, this.addressHash);
    if (hashed === null) return { name: stream, read: null };
    const current = await this.inner.read(hashed);
    if (current.revision >= 0) return { name: hashed, read: current };
    const legacy = await this.inner.read(stream);
    return legacy.revision >= 0 ? { name: stream, read: legacy } : { name: hashed, read: current };
  }

  private async sealEvent(event: NewEvent): Promise<NewEvent> {
    const rule = sealingRuleOf(event.type);
    if (rule === null || !isRecord(event.data)) return event;
    const subject = subjectOf(rule, event.data, event.metadata, this.addressHash);
    if (subject === null) return event;
    const key = await this.keys.activeKey(subject);
    const data = { ...event.data };
    for (const { field, kind } of rule.fields) {
      const value = data[field];
      if (value === undefined || value === null) continue;
      // A text field seals strings only; a json field seals any value, as JSON.
      const plain = kind === "json" ? JSON.stringify(value) : typeof value === "string" ? value : null;
      if (plain === null) continue;
      if (this.options.keepSealed && typeof value === "string" && envelopeHeader(value) !== null) continue;
      data[field] = seal(key, plain);
    }
    return { ...event, data };
  }

  /** A sealed field's value: its plaintext, or its erased value once its key is destroyed. */
  private opened(
    recorded: RecordedEvent,
    { kind, erased }: SealedField,
    envelope: ParsedEnvelope,
    key: DataKey | null,
  ): unknown {
    if (key === null) return erased;
    try {
      const plaintext = open(key, envelope);
      return kind === "json" ? JSON.parse(plaintext) : plaintext;
    } catch {
      throw new SealedFieldError(
        `a sealed field of event ${recorded.id} (${recorded.type}) at position ${recorded.position} does not open under its key`,
      );
    }
  }

  /**
   * Opens the events' sealed fields. Keys the key store holds at hand are used at once; the others are fetched
   * together before any field is opened (one read of the key store for the batch, each subject's key once), so
   * a batch opens without a turn of the event loop per field or per key.
   */
  private async openAll(events: readonly RecordedEvent[]): Promise<RecordedEvent[]> {
    const sealedFields: Array<{ readonly at: number; readonly field: SealedField; readonly envelope: ParsedEnvelope }> =
      [];
    for (const [at, recorded] of events.entries()) {
      const rule = sealingRuleOf(recorded.type);
      if (rule === null || !isRecord(recorded.data)) continue;
      for (const field of rule.fields) {
        const value = recorded.data[field.field];
        const envelope = typeof value === "string" ? parseEnvelope(value) : null;
        if (envelope !== null) sealedFields.push({ at, field, envelope });
      }
    }
    if (sealedFields.length === 0) return [...events];
    const keyOf = await this.keysFor(sealedFields.map(({ envelope }) => envelope));
    const opened = [...events];
    const data = new Map<number, Record<string, unknown>>();
    for (const { at, field, envelope } of sealedFields) {
      const recorded = events[at];
      if (!recorded || !isRecord(recorded.data)) continue;
      let fields = data.get(at);
      if (!fields) {
        fields = { ...recorded.data };
        data.set(at, fields);
        opened[at] = { ...recorded, data: fields };
      }
      fields[field.field] = this.opened(recorded, field, envelope, keyOf(envelope));
    }
    return opened;
  }

  /** The keys the envelopes name: those at hand as they are, the rest fetched in one request to the key store. */
  private async keysFor(envelopes: readonly EnvelopeHeader[]): Promise<(envelope: EnvelopeHeader) => DataKey | null> {
    const fetched = new Map<string, DataKey | null>();
    const name = ({ subject, keyId }: EnvelopeHeader) => `${subject} ${keyId}`;
    const wanted = new Map<string, EnvelopeHeader>();
    for (const envelope of envelopes) {
      const known = this.keys.knownKey?.(envelope.subject, envelope.keyId);
      if (known === undefined) wanted.set(name(envelope), envelope);
      else fetched.set(name(envelope), known);
    }
    if (wanted.size > 0) {
      const asked = [...wanted.values()];
      const keys = this.keys.keysOf
        ? await this.keys.keysOf(asked)
        : await Promise.all(asked.map(({ subject, keyId }) => this.keys.key(subject, keyId)));
      for (const [index, envelope] of asked.entries()) fetched.set(name(envelope), keys[index] ?? null);
    }
    return (envelope) => fetched.get(name(envelope)) ?? null;
  }

  async append(stream: string, events: readonly NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    const { name } = await this.storedName(stream);
    const sealed: NewEvent[] = [];
    for (const event of events) sealed.push(await this.sealEvent(event));
    // Sealing grows a field by about a third: the size the stores hold to is the sealed one.
    assertAppendSize(sealed);
    return this.inner.append(name, sealed, expectedRevision);
  }

  async read(stream: string): Promise<StreamRead> {
    const { name, read } = await this.storedName(stream);
    const found = read ?? (await this.inner.read(name));
    return { revision: found.revision, events: await this.openAll(found.events) };
  }

  async readAll(afterPosition: number, limit: number, maxBytes?: number): Promise<RecordedEvent[]> {
    return this.openAll(await this.inner.readAll(afterPosition, limit, maxBytes));
  }

  headPosition(): Promise<number> {
    return this.inner.headPosition();
  }

  subscribe(afterPosition: number, handler: BatchHandler, options?: SubscriptionOptions): Subscription {
    return this.inner.subscribe(afterPosition, async (events) => handler(await this.openAll(events)), options);
  }

  async close(): Promise<void> {
    await this.inner.close();
    if (this.options.closeKeys) await this.keys.close();
  }
}
