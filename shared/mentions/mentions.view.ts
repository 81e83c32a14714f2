// Read model of mentions: who a page's markdown or a comment's body mentions, each with the position where the
// mention first appeared in that text, so a notifier tells a new mention from one that was already there.
// Mentions grant nothing: whether the mentioned user may view the page is judged when they are notified.
export interface MentionSource {
  readonly kind: "page" | "comment";
  /** The page's id, or the comment's. */
  readonly id: string;
}

export interface MentionRecord {
  readonly source: MentionSource;
  readonly pageId: string;
  readonly userId: string;
  /** Where the mention first appeared in the source's text. */
  readonly since: number;
}

export interface MentionsView {
  /** The users the source mentions now, in user-id order. */
  mentionsIn(source: MentionSource): Promise<MentionRecord[]>;
}

export interface MentionsWriter<Tx> {
  /** The source's text now mentions exactly `userIds` (on `pageId`); mentions kept keep their first position. */
  setMentions(
    tx: Tx,
    source: MentionSource,
    pageId: string,
    userIds: readonly string[],
    position: number,
  ): Promise<void>;
  removeSource(tx: Tx, source: MentionSource): Promise<void>;
  /** The users the source mentions, as the batch sees it (before its text's latest change is set): a new mention is one not among them. */
  mentionedIn(tx: Tx, source: MentionSource): Promise<string[]>;
}
