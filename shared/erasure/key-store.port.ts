// The key store port: one data key per data subject (`user:<id>`, `address:<keyed hash>`, `page:<id>`,
// `folder:<id>`), held
// outside the event log. What must be erasable is written to the log sealed under its subject's key; destroying
// the key is the erasure. Adapters keep keys wrapped by the key-encryption key and pass
// test/contracts/key-store.contract.ts.

/** A subject's data key: 32 bytes for AES-256-GCM, named by a random id that sealed fields carry. */
export interface DataKey {
  readonly subject: string;
  readonly keyId: string;
  readonly material: Buffer;
}

/** Which key a sealed field names. */
export interface KeyName {
  readonly subject: string;
  readonly keyId: string;
}

export interface KeyStore {
  /** The subject's key, created when it has none (also after its key was destroyed: a new key, a new id). */
  activeKey(subject: string): Promise<DataKey>;
  /**
   * The subject's key of that id, or null when it was destroyed. Throws KeyStoreError for a key the store never
   * held (a store older than the log, restored from an earlier backup, or another store): never an erased value.
   */
  key(subject: string, keyId: string): Promise<DataKey | null>;
  /**
   * The key as `key` would answer it when that answer is at hand without I/O (a cache holds it), else undefined:
   * lets a reader open a batch of events without a turn of the event loop per field.
   */
  knownKey?(subject: string, keyId: string): DataKey | null | undefined;
  /**
   * The keys of many envelopes at once, in the order asked, each as `key` answers it (null when destroyed; a
   * KeyStoreError for one the store never held): one read for a batch of events rather than one per subject.
   */
  keysOf?(wanted: readonly KeyName[]): Promise<Array<DataKey | null>>;
  /** Destroys every key of the subject; what was sealed under them stays unreadable for good. */
  destroy(subject: string): Promise<void>;
  /** A random id made when the store was created, so a process can tell a lost store from its own. */
  storeId(): Promise<string>;
  close(): Promise<void>;
}

/** A key store that cannot be used as it is: wrong key-encryption key, unreadable file, another store. */
export class KeyStoreError extends Error {}

/** A key that a sealed field names and the store neither holds nor destroyed. */
export const missingKey = (subject: string, where: string): KeyStoreError =>
  new KeyStoreError(
    `the key store ${where} holds no key of ${subject} that the event log names, and never destroyed it: it is older than the log (restored from an earlier backup?) or another store; restore the key store backed up with the log`,
  );

/** What a subject names. */
export const subjects = {
  user: (userId: string): string => `user:${userId}`,
  address: (addressHash: string): string => `address:${addressHash}`,
  // Ids are uuids, compared case-insensitively everywhere: one page has one subject however its id was written.
  page: (pageId: string): string => `page:${pageId.toLowerCase()}`,
  folder: (folderId: string): string => `folder:${folderId.toLowerCase()}`,
} as const;

/** Subjects are short, printable names: the adapters store them as keys. */
const SUBJECT_PATTERN = /^[a-z]+:[A-Za-z0-9_-]{1,128}$/;

export function checkSubject(subject: string): void {
  if (!SUBJECT_PATTERN.test(subject))
    throw new KeyStoreError(`not a key subject: ${JSON.stringify(subject.slice(0, 40))}`);
}
