// Copies of sent mail a deployment keeps (the embedded outbox keeps every mail as a file; SMTP keeps none): what
// an erasure deletes, since an invitation mail names its recipient's address and its sender's name.
export interface SentMail {
  /** Deletes every kept mail whose text holds one of `needles` (compared case-insensitively); answers how many. */
  eraseNaming(needles: readonly string[]): Promise<number>;
}
