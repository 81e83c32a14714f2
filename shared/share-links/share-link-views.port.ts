// What a query node reports to the write side about public views of share links: counts it gathered since its
// last report. The secret travels with each count so that a write side reached over HTTP checks it again itself
// (as the sightings route checks the caller's own credentials): only someone who holds a link can count a view.
export interface ShareLinkViewReport {
  readonly linkId: string;
  readonly secret: string;
  readonly views: number;
  readonly lastViewedAt: string;
}

export interface ShareLinkViewRecorder {
  /** Records the counts (links revoked or unknown meanwhile are skipped); throws when the write side is unreachable. */
  recordViews(reports: readonly ShareLinkViewReport[], correlationId: string): Promise<void>;
}
