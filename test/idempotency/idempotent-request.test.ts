import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CommandContext } from "../../shared/commands/command-context.ts";
import type { EventStore } from "../../shared/event-store/event-store.port.ts";
import { CLAIM_EXPIRY_MS, idempotencyStream, REPLAY_WINDOW_MS } from "../../shared/idempotency/idempotency.decider.ts";
import {
  runIdempotently,
  type IdempotentRequest,
  type WorkResult,
} from "../../shared/idempotency/idempotent-request.ts";
import { KeyEncryptionKey } from "../../shared/erasure/key-encryption-key.ts";
import { idempotencyKeyHash } from "../../shared/idempotency/idempotency-key.ts";
import {
  requestFingerprint as fingerprintUnder,
  unkeyedRequestFingerprint,
  type FingerprintedRequest,
} from "../../shared/idempotency/request-fingerprint.ts";
import { toNewEvents } from "../../shared/commands/new-events.ts";
import { userIdSchema, type UserId } from "../../shared/kernel/ids.ts";
import { sqliteEventStoreFile } from "../support/stores.ts";

const kek = new KeyEncryptionKey("k".repeat(40));
const requestFingerprint = (request: FingerprintedRequest): string =>
  fingerprintUnder(request, (text) => kek.fingerprintHash(text));
const start = new Date("2026-03-01T09:00:00.000Z");
const later = (ms: number): Date => new Date(start.getTime() + ms);
const newCaller = (): UserId => userIdSchema.parse(randomUUID());

/** A work that counts its runs and answers like a page creation, numbered by run. */
function countingWork() {
  const work = {
    runs: 0,
    run: async (): Promise<WorkResult> => {
      work.runs += 1;
      return {
        status: 201,
        body: { id: `page-${work.runs}`, title: "Plan" },
        consistencyToken: String(100 + work.runs),
      };
    },
  };
  return work;
}

/** A promise the test settles when it chooses: the work in progress waits on it. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe("running a request under an Idempotency-Key", () => {
  let file: Awaited<ReturnType<typeof sqliteEventStoreFile>>;
  let store: EventStore;
  let caller: UserId;
  let request: IdempotentRequest;
  const at = (now: Date): CommandContext => ({ actorId: caller, correlationId: randomUUID(), now });

  beforeEach(async () => {
    file = await sqliteEventStoreFile();
    store = file.open();
    caller = newCaller();
    request = {
      callerId: caller,
      key: randomUUID(),
      fingerprint: requestFingerprint({ method: "POST", path: "/pages", body: { title: "Plan" } }),
    };
  });

  afterEach(async () => {
    await store.close();
    await file.remove();
  });

  it("replays to a retry the response recorded before fingerprints were keyed, and refuses another request then as now", async () => {
    const create = { method: "POST", path: "/pages", body: { title: "Plan" } };
    const unkeyed = unkeyedRequestFingerprint(create);
    const keyHash = idempotencyKeyHash(caller, request.key);
    const recorded = { status: 201, body: { id: "page-before", title: "Plan" }, consistencyToken: "7" };
    await store.append(
      idempotencyStream(keyHash),
      toNewEvents(
        [
          { type: "IdempotencyKeyClaimed", data: { keyHash, fingerprint: unkeyed, claimedAt: start.toISOString() } },
          {
            type: "IdempotentRequestCompleted",
            data: { keyHash, fingerprint: unkeyed, ...recorded, completedAt: start.toISOString() },
          },
        ],
        at(start),
      ),
      "no_stream",
    );
    const work = countingWork();
    const retry = await runIdempotently(store, { ...request, unkeyedFingerprint: unkeyed }, at(later(1_000)), work.run);
    expect(retry).toEqual({ ...recorded, replayed: true });
    expect(work.runs).toBe(0);
    const other = {
      ...request,
      fingerprint: requestFingerprint({ ...create, body: { title: "Other" } }),
      unkeyedFingerprint: unkeyedRequestFingerprint({ ...create, body: { title: "Other" } }),
    };
    await expect(runIdempotently(store, other, at(later(1_000)), work.run)).rejects.toMatchObject({
      code: "idempotency_key_mismatch",
    });
  });

  it("replays a completed request's response to its retry without running the work again", async () => {
    const work = countingWork();
    const first = await runIdempotently(store, request, at(start), work.run);
    const retry = await runIdempotently(store, request, at(later(1_000)), work.run);

    expect(work.runs).toBe(1);
    expect(first).toEqual({
      replayed: false,
      status: 201,
      body: { id: "page-1", title: "Plan" },
      consistencyToken: "101",
    });
    expect(retry).toEqual({ ...first, replayed: true });
  });

  it("refuses a duplicate sent while the first is in progress with 409, and runs the work once", async () => {
    const inProgress = gate();
    let runs = 0;
    const work = async (): Promise<WorkResult> => {
      runs += 1;
      // Only the first run waits, so that a duplicate wrongly let through settles at once instead of hanging.
      if (runs === 1) await inProgress.opened;
      return { status: 201, body: { id: "page-1" }, consistencyToken: "7" };
    };

    const first = runIdempotently(store, request, at(start), work);
    const duplicate = runIdempotently(store, request, at(start), work);

    await expect(duplicate).rejects.toMatchObject({ code: "conflict", status: 409 });
    inProgress.open();
    await expect(first).resolves.toEqual({
      replayed: false,
      status: 201,
      body: { id: "page-1" },
      consistencyToken: "7",
    });
    expect(runs).toBe(1);
  });

  it("refuses the key with another request with 422, whether the first is in progress or completed", async () => {
    const work = countingWork();
    const other = {
      ...request,
      fingerprint: requestFingerprint({ method: "POST", path: "/pages", body: { title: "Other" } }),
    };
    const inProgress = gate();
    const first = runIdempotently(store, request, at(start), async () => {
      await inProgress.opened;
      return work.run();
    });

    await expect(runIdempotently(store, other, at(start), work.run)).rejects.toMatchObject({
      code: "idempotency_key_mismatch",
      status: 422,
    });
    inProgress.open();
    await first;
    await expect(runIdempotently(store, other, at(later(1_000)), work.run)).rejects.toMatchObject({
      code: "idempotency_key_mismatch",
      status: 422,
    });
    expect(work.runs).toBe(1);
  });

  it("keeps its record when the event store is closed and opened again", async () => {
    const work = countingWork();
    const first = await runIdempotently(store, request, at(start), work.run);
    await store.close();
    store = file.open();

    const retry = await runIdempotently(store, request, at(later(1_000)), work.run);

    expect(work.runs).toBe(1);
    expect(retry).toEqual({ ...first, replayed: true });
    expect((await store.readAll(0, 10)).map((event) => event.type)).toEqual([
      "IdempotencyKeyClaimed",
      "IdempotentRequestCompleted",
    ]);
  });

  it("lets the client retry with the same key after the work failed, and passes the failure on", async () => {
    const failure = new Error("the page store is unavailable");
    await expect(runIdempotently(store, request, at(start), async () => Promise.reject(failure))).rejects.toBe(failure);

    const work = countingWork();
    const retry = await runIdempotently(store, request, at(later(1_000)), work.run);

    expect(work.runs).toBe(1);
    expect(retry.replayed).toBe(false);
  });

  it("runs the request afresh once its completion is 24 hours old", async () => {
    const work = countingWork();
    await runIdempotently(store, request, at(start), work.run);

    const justBefore = await runIdempotently(store, request, at(later(REPLAY_WINDOW_MS - 1)), work.run);
    const after = await runIdempotently(store, request, at(later(REPLAY_WINDOW_MS)), work.run);

    expect(justBefore).toMatchObject({ replayed: true, body: { id: "page-1" } });
    expect(after).toMatchObject({ replayed: false, body: { id: "page-2" } });
    expect(work.runs).toBe(2);
  });

  it("lets a new request take over a claim that did not complete within 5 minutes", async () => {
    const stuck = gate();
    const work = countingWork();
    const abandoned = runIdempotently(store, request, at(start), async () => {
      await stuck.opened;
      return { status: 201, body: { id: "stuck" }, consistencyToken: null };
    });

    await expect(runIdempotently(store, request, at(later(CLAIM_EXPIRY_MS - 1)), work.run)).rejects.toMatchObject({
      code: "conflict",
    });
    const takeover = await runIdempotently(store, request, at(later(CLAIM_EXPIRY_MS)), work.run);
    // The abandoned request finishing late does not overwrite the record of the one that took over.
    stuck.open();
    await abandoned;
    const retry = await runIdempotently(store, request, at(later(CLAIM_EXPIRY_MS + 1_000)), work.run);

    expect(takeover).toMatchObject({ replayed: false, body: { id: "page-1" } });
    expect(retry).toEqual({ ...takeover, replayed: true });
    expect(work.runs).toBe(1);
  });

  it("scopes a key to its caller: another caller's same key is another record", async () => {
    const work = countingWork();
    await runIdempotently(store, request, at(start), work.run);
    const someoneElse = newCaller();

    const theirs = await runIdempotently(
      store,
      { ...request, callerId: someoneElse },
      { ...at(start), actorId: someoneElse },
      work.run,
    );

    expect(theirs).toMatchObject({ replayed: false, body: { id: "page-2" } });
    expect(work.runs).toBe(2);
  });

  it("names the key's stream by a hash, never by the key itself", async () => {
    await runIdempotently(store, { ...request, key: "order-42" }, at(start), countingWork().run);

    const recorded = await store.readAll(0, 10);

    expect(recorded.map((event) => event.stream)).toEqual([
      expect.stringMatching(/^idempotency-[0-9a-f]{64}$/),
      expect.stringMatching(/^idempotency-[0-9a-f]{64}$/),
    ]);
    expect(JSON.stringify(recorded)).not.toContain("order-42");
  });

  it.each([
    ["empty", ""],
    ["with a space", "order 42"],
    ["with a control character", "order\t42"],
    ["outside ASCII", "commande-é"],
    ["256 characters long", "k".repeat(256)],
  ])("refuses a key %s with 400, naming the Idempotency-Key header", async (_label, key) => {
    const work = countingWork();
    await expect(runIdempotently(store, { ...request, key }, at(start), work.run)).rejects.toMatchObject({
      code: "validation_failed",
      status: 400,
      message: expect.stringContaining("Idempotency-Key"),
    });
    expect(work.runs).toBe(0);
  });

  it("accepts a key of 255 visible ASCII characters", async () => {
    const key = "!~".repeat(127) + "a";
    await expect(runIdempotently(store, { ...request, key }, at(start), countingWork().run)).resolves.toMatchObject({
      replayed: false,
    });
  });
});
