// Parked events: an event one projection could not apply, recorded with the projection's name and the error,
// while every other projection applied it and the projector went on. The failing projection applies it only
// when an operator says so (`npm run projections -- --retry`, or `--skip EVENT_ID` to leave it out for good).
// Later events of the same stream wait for that projection too (parked "behind" it), so a projection never
// applies an event over an earlier one of its stream that it missed. Records live with the read models (the
// same transaction as the batch and its checkpoint; a rebuild starts them afresh). Adapters pass
// test/contracts/parked-events.contract.ts.

/** Which projection a record is for: the names project.ts gives its projections. */
export const PROJECTION_NAMES = [
  "history",
  "storedBytes",
  "links",
  "trash",
  "purge",
  "users",
  "tokens",
  "folders",
  "pages",
  "threads",
  "access",
  "invitations",
  "images",
  "attachments",
  "webhooks",
  "shareLinks",
  "groups",
  "apps",
  "templates",
  "watches",
  "mentions",
  "directory",
  "notifications",
  "audit",
] as const;
export type ProjectionName = (typeof PROJECTION_NAMES)[number];

export interface ParkedEvent {
  readonly eventId: string;
  readonly position: number;
  readonly stream: string;
  readonly type: string;
  readonly projection: ProjectionName;
  /** failed: the projection threw on it; behind: an earlier event of its stream is parked for the projection. */
  readonly cause: "failed" | "behind";
  /** The error's message (failed), or which parked event it waits behind (behind). */
  readonly error: string;
  readonly parkedAt: string;
  /** How many times applying it failed (1 when parked; an operator's retry that fails adds one). */
  readonly attempts: number;
}

/** The projector's side, inside a batch (`tx`), and the operator's. */
export interface ParkedEventsStore<Tx> {
  park(tx: Tx, record: ParkedEvent): Promise<void>;
  /** The (projection, stream) pairs among `streams` that have a parked event: keys made by parkedKey. */
  blocked(tx: Tx, streams: readonly string[]): Promise<Set<string>>;
  /** Parked events in log order, at most `limit`, after position `after`. */
  list(tx: Tx | null, options: { after: number; limit: number }): Promise<ParkedEvent[]>;
  /** Records a failed retry: the new error, one more attempt. */
  failedAgain(tx: Tx, projection: ProjectionName, eventId: string, error: string): Promise<void>;
  /** Takes the record out (applied at last, or skipped); whether there was one. */
  remove(tx: Tx, projection: ProjectionName, eventId: string): Promise<boolean>;
  count(): Promise<number>;
}

export const parkedKey = (projection: ProjectionName, stream: string): string => `${projection}\u0000${stream}`;
