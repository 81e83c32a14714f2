// A bounded cache in front of a key store, so sealing and opening cost one store read per key, not per field.
// A key is kept for at most `ttlMs` (a key destroyed by another process is used here for at most that long) and
// at most `maxEntries` keys are kept, least recently used dropped first. A key found missing is remembered as
// missing: a destroyed key never comes back under the same id.
import type { DataKey, KeyName, KeyStore } from "./key-store.port.ts";

interface Entry {
  readonly key: DataKey | null;
  readonly until: number;
}

export interface KeyCacheOptions {
  readonly maxEntries: number;
  readonly ttlMs: number;
  readonly now?: () => number;
}

export class CachedKeyStore implements KeyStore {
  private readonly entries = new Map<string, Entry>();
  /** The name last moved to the end of `entries`. */
  private lastName: string | null = null;
  private readonly now: () => number;

  constructor(
    private readonly inner: KeyStore,
    private readonly options: KeyCacheOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Keys held now; the cache never holds more than `maxEntries`. */
  get size(): number {
    return this.entries.size;
  }

  private remember(name: string, key: DataKey | null): void {
    this.entries.delete(name);
    this.entries.set(name, { key, until: key ? this.now() + this.options.ttlMs : Number.POSITIVE_INFINITY });
    this.lastName = name;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.options.maxEntries) break;
      this.entries.delete(oldest);
    }
  }

  private recall(name: string): Entry | undefined {
    const entry = this.entries.get(name);
    if (!entry) return undefined;
    if (entry.until <= this.now()) {
      this.entries.delete(name);
      return undefined;
    }
    // Most recently used goes last; a key used again at once (every field of a page's events) is already there.
    if (this.lastName !== name) {
      this.entries.delete(name);
      this.entries.set(name, entry);
      this.lastName = name;
    }
    return entry;
  }

  async activeKey(subject: string): Promise<DataKey> {
    const cached = this.recall(`active ${subject}`)?.key;
    if (cached) return cached;
    const key = await this.inner.activeKey(subject);
    this.remember(`active ${subject}`, key);
    this.remember(`${subject} ${key.keyId}`, key);
    return key;
  }

  knownKey(subject: string, keyId: string): DataKey | null | undefined {
    return this.recall(`${subject} ${keyId}`)?.key;
  }

  async key(subject: string, keyId: string): Promise<DataKey | null> {
    const cached = this.recall(`${subject} ${keyId}`);
    if (cached) return cached.key;
    const key = await this.inner.key(subject, keyId);
    this.remember(`${subject} ${keyId}`, key);
    return key;
  }

  /** The cached keys at once; those missing fetched from the store together (in one read when it offers one). */
  async keysOf(wanted: readonly KeyName[]): Promise<Array<DataKey | null>> {
    const found = new Map<string, DataKey | null>();
    const missing = new Map<string, KeyName>();
    for (const { subject, keyId } of wanted) {
      const name = `${subject} ${keyId}`;
      if (found.has(name) || missing.has(name)) continue;
      const cached = this.recall(name);
      if (cached) found.set(name, cached.key);
      else missing.set(name, { subject, keyId });
    }
    if (missing.size > 0) {
      const asked = [...missing.values()];
      const fetched = this.inner.keysOf
        ? await this.inner.keysOf(asked)
        : await Promise.all(asked.map(({ subject, keyId }) => this.inner.key(subject, keyId)));
      for (const [index, { subject, keyId }] of asked.entries()) {
        const key = fetched[index] ?? null;
        this.remember(`${subject} ${keyId}`, key);
        found.set(`${subject} ${keyId}`, key);
      }
    }
    return wanted.map(({ subject, keyId }) => found.get(`${subject} ${keyId}`) ?? null);
  }

  async destroy(subject: string): Promise<void> {
    const active = this.entries.get(`active ${subject}`)?.key;
    await this.inner.destroy(subject);
    this.entries.delete(`active ${subject}`);
    if (active) this.remember(`${subject} ${active.keyId}`, null);
    for (const [name, entry] of this.entries) if (entry.key?.subject === subject) this.remember(name, null);
  }

  storeId(): Promise<string> {
    return this.inner.storeId();
  }

  close(): Promise<void> {
    this.entries.clear();
    return this.inner.close();
  }
}
