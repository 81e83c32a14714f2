// Where an attachment upload asks the per-owner stored-bytes quota: the bytes of an upload count against the
// page owner's workspace. The quota itself lives elsewhere; until it is wired in, nothing is asked and every
// upload within ATTACHMENT_MAX_BYTES is admitted.
export interface StoredBytesQuota {
  /** Throws AppError("quota_exceeded") when `ownerId` may not store `bytes` more. */
  admit(ownerId: string, bytes: number): Promise<void>;
}
