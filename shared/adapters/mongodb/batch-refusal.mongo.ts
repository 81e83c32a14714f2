// MongoDB's ways of refusing a transaction for its size or its duration, mapped to the port's BatchRefusedError
// so the projector splits the batch instead of retrying it as it is ("unlikely to complete even if retried").
import { MongoServerError } from "mongodb";
import { BatchRefusedError } from "../../read-store/batch-refused.ts";

/** The transaction's writes do not fit in the share of the WiredTiger cache one transaction may dirty. */
const TOO_LARGE = new Set(["TransactionTooLargeForCache", "TransactionTooLarge"]);
/** The transaction or one of its operations ran past a time limit. */
const TOO_LONG = new Set(["TransactionExceededLifetimeLimitSeconds", "ExceededTimeLimit", "MaxTimeMSExpired"]);
/**
 * The server aborts a transaction older than transactionLifetimeLimitSeconds (60 s by default) on its own; the
 * operation after that fails with NoSuchTransaction. Only a batch that ran about that long is taken as refused
 * for its length: NoSuchTransaction after a primary's step-down is an ordinary failure.
 */
const LIFETIME_LIMIT_MS = 55_000;

function codeNameOf(error: unknown): string | null {
  if (!(error instanceof MongoServerError)) return null;
  const codeName: unknown = error.codeName ?? error.errorResponse["codeName"];
  return typeof codeName === "string" ? codeName : null;
}

/** The refusal `error` stands for, or null when it is another failure; `elapsedMs`: how long the batch ran. */
export function batchRefusalOf(error: unknown, elapsedMs: number): BatchRefusedError | null {
  const codeName = codeNameOf(error);
  if (codeName === null) return null;
  if (TOO_LARGE.has(codeName)) return new BatchRefusedError("too_large", { cause: error });
  if (TOO_LONG.has(codeName) || (codeName === "NoSuchTransaction" && elapsedMs >= LIFETIME_LIMIT_MS))
    return new BatchRefusedError("too_long", { cause: error });
  return null;
}
