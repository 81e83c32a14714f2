// Read model of stored bytes per workspace owner: one running total (image and attachment bytes on the owner's
// pages until they are purged), kept by the stored-bytes projection, so the quota reads one row whatever the
// workspace's size.

export interface StoredBytesView {
  /** The owner's running total; 0 for an owner who never stored a file. */
  ofOwner(ownerId: string): Promise<number>;
}

export interface StoredBytesWriter<Tx> {
  /**
   * Adds `bytes` (negative to take away) to the owner's total, once per event: a change at a `position` the
   * total already reflects (a batch applied again after a crash, without a transaction) is not counted twice.
   */
  add(tx: Tx, ownerId: string, bytes: number, position: number): Promise<void>;
}
