// The bus port: integration events published by the projector after each committed batch, consumed by
// services such as the notifier. Delivery is at least once; a message id seen before is not delivered again.
export interface BusMessage {
  /** The id of the event the message carries: publishing it twice delivers it once. */
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
   * Delivers every message of these subjects published from now on. Subscribers that share a `group` share the
   * work (each message reaches one of them); each group gets every message. A handler that throws gets the
   * message again later.
   */
  subscribe(options: { subjects: readonly string[]; group: string; handler: BusHandler }): BusSubscription;
  close(): Promise<void>;
}
