// MongoDB's refusals of a transaction for its size or its length become the port's BatchRefusedError (the
// projector then splits the batch); any other server error stays what it is. No server needed: the errors are
// the driver's own classes, built as the driver builds them from a server's answer.
import { MongoNetworkError, MongoServerError } from "mongodb";
import { describe, expect, it } from "vitest";
import { batchRefusalOf } from "../../../shared/adapters/mongodb/batch-refusal.mongo.ts";

const serverError = (codeName: string, code: number) =>
  new MongoServerError({ ok: 0, errmsg: `${codeName} from the server`, code, codeName });

describe("a MongoDB refusal of a projection batch", () => {
  it("takes TransactionTooLargeForCache as a batch too large", () => {
    expect(batchRefusalOf(serverError("TransactionTooLargeForCache", 10334), 100)?.refusal).toBe("too_large");
  });

  it("takes a transaction past its time limit as a batch too long", () => {
    expect(batchRefusalOf(serverError("TransactionExceededLifetimeLimitSeconds", 290), 100)?.refusal).toBe("too_long");
    expect(batchRefusalOf(serverError("NoSuchTransaction", 251), 61_000)?.refusal).toBe("too_long");
  });

  it("leaves other failures as they are: a write conflict, a step-down's lost transaction, a network error", () => {
    expect(batchRefusalOf(serverError("WriteConflict", 112), 100)).toBeNull();
    expect(batchRefusalOf(serverError("NoSuchTransaction", 251), 1_000)).toBeNull();
    expect(batchRefusalOf(new MongoNetworkError("connection reset"), 100)).toBeNull();
  });
});
