// The journals a store keeps beside its files (SQLite's write-ahead logs): deleted or overwritten rows live on in
// them until they are checkpointed and emptied. An erasure empties them before it answers, so that when it
// answers no file of the deployment holds what it erased.

export interface StoreJournals {
  /** Copies each journal into its store's file (overwritten deletions included) and empties it. */
  empty(): Promise<void>;
}
