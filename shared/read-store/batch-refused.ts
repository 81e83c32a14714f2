// How a projection store says "this batch is too much for me": a refusal a smaller batch may pass (MongoDB's
// TransactionTooLargeForCache, a transaction past its time limit), as opposed to a failure that would repeat
// whatever the batch's size. The projector answers it by splitting the batch.

export type BatchRefusal = "too_large" | "too_long";

/** The store refused the whole batch (nothing of it was kept) because of its size or its duration. */
export class BatchRefusedError extends Error {
  constructor(
    readonly refusal: BatchRefusal,
    options: { cause?: unknown } = {},
  ) {
    super(
      refusal === "too_large"
        ? "the read store refused the batch as too large"
        : "the batch ran past the read store's time limit",
      options,
    );
    this.name = "BatchRefusedError";
  }
}
