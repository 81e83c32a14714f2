// The read models were laid out by another release than this process's (a newer release's replay switched them
// over, or an older release's opened them): writing them in this release's layout would mix two layouts in one
// generation, so a projection store refuses, and the projector stops and says so.
export class ReadModelLayoutChangedError extends Error {
  constructor(
    /** The layout version the read models have. */
    readonly found: number,
    /** The layout version this release writes. */
    readonly expected: number,
  ) {
    super(
      `the read models are laid out by version ${found} and this release writes version ${expected}: ${found > expected ? "a newer release took them over; stop this one" : "replay the history first (npm run replay)"}`,
    );
    this.name = "ReadModelLayoutChangedError";
  }
}
