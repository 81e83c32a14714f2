// The bus port: integration events published by the projector after each committed batch, consumed by
// services such as the notifier through durable consumer groups. Delivery is at least once, so handlers must
// tolerate a message they have seen before.
export interface BusMessage {
  /** The id of the event the message carries: publishing it twice delivers it once to each group. */
  readonly id: string;
  /** The event type, e.g. InvitationQueued. */
  readonly subject: string;
  readonly data: unknown;
  readonly metadata: Readonly<Record<string, unknown>>;
}

export type BusHandler = (message: BusMessage) => Promise<void>;

export interface BusSubscription {
  stop(): Promise<void>;
}

export interface Bus {
  publish(messages: readonly BusMessage[]): Promise<void>;
  /**
   * Joins `group` as a member consuming these subjects. Resolves once the subscription is in place (a JetStream
   * adapter creates its durable consumer first): every message published after that reaches the group. While
   * the broker is away it resolves at once, and the group is joined once the broker answers, from the moment it
   * asked (a process starts without its broker).
   *
   * - Durable: a group resumes where it left off. Messages published while it has no live member are kept and
   *   delivered once a member of that group subscribes again, for as long as the bus lives (the bus object for
   *   the in-process adapter, the stream for JetStream). A group subscribing for the first time starts from now.
   * - At least once: a handler that throws gets the message again, later.
   * - Deduplicated by message id: publishing the same id twice delivers it once per group.
   * - Members of one group share the work (each message reaches one of them); each group gets every message
   *   of its subjects.
   */
  subscribe(options: { subjects: readonly string[]; group: string; handler: BusHandler }): Promise<BusSubscription>;
  /**
   * The publisher's place in the global log (the position of the last event it published), kept with the bus
   * for as long as the bus lives, so that publishing resumes there after a restart or an outage of the bus:
   * null until one is saved.
   */
  publishedPosition(): Promise<number | null>;
  savePublishedPosition(position: number): Promise<void>;
  close(): Promise<void>;
}
