// A blob delete done in several writes is finished and checked before it reports success: a failure between the
// writes (a failover) is retried, and a delete that never completes fails instead of passing for done.
import { describe, expect, it } from "vitest";
import { BlobNotDeletedError, deleteVerified } from "../../shared/blobs/verified-delete.ts";

/** A blob stored as a record and its chunks, removed chunks first; `failures` chunk removals fail first. */
function twoStepBlob(options: { failures: number; chunksComeBack?: boolean }) {
  const stored = { record: true, chunks: 3 };
  let failures = options.failures;
  let attempts = 0;
  return {
    stored,
    get attempts() {
      return attempts;
    },
    steps: {
      async remove() {
        attempts += 1;
        if (failures > 0) {
          failures -= 1;
          throw new Error("not primary");
        }
        stored.chunks = options.chunksComeBack ? 1 : 0;
        stored.record = false;
      },
      async left() {
        return stored.chunks + (stored.record ? 1 : 0);
      },
    },
  };
}

describe("a verified blob delete", () => {
  it("retries a removal that failed halfway and resolves once nothing of the blob is left", async () => {
    const blob = twoStepBlob({ failures: 2 });
    await deleteVerified("blob a.png", blob.steps, [0, 0, 0]);
    expect(blob.stored).toEqual({ record: false, chunks: 0 });
    expect(blob.attempts).toBe(3);
  });

  it("fails, naming the blob, when the bytes are still there after every attempt", async () => {
    const failing = twoStepBlob({ failures: 10 });
    await expect(deleteVerified("blob b.png", failing.steps, [0, 0])).rejects.toThrow(BlobNotDeletedError);
    await expect(deleteVerified("blob b.png", failing.steps, [0, 0])).rejects.toThrow(
      /blob b\.png was still stored after 3 attempts/,
    );
    // A removal that reports success while pieces stay is not taken at its word.
    const lying = twoStepBlob({ failures: 0, chunksComeBack: true });
    await expect(deleteVerified("blob c.png", lying.steps, [0])).rejects.toThrow(BlobNotDeletedError);
    expect(lying.stored.chunks).toBe(1);
  });
});
