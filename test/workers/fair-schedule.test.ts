// The worker pool's scheduling policy: callers take turns, a caller's share is capped, and the queue is bounded.
import { describe, expect, it } from "vitest";
import { FairSchedule, type FairScheduleLimits } from "../../shared/workers/fair-schedule.ts";

const schedule = (limits: Partial<FairScheduleLimits> = {}) =>
  new FairSchedule<string>({ slots: 1, runningPerCaller: 1, perCaller: 8, queue: 64, ...limits });

describe("the worker pool's fair schedule", () => {
  it("starts a task at once when a thread is free", () => {
    expect(schedule().submit("alice", "a1")).toEqual({ kind: "start" });
  });

  it("gives a caller's next task to another caller who waited, however many the first has queued", () => {
    const pool = schedule();
    pool.submit("mallory", "m1");
    for (const task of ["m2", "m3", "m4", "m5"]) expect(pool.submit("mallory", task)).toEqual({ kind: "wait" });
    expect(pool.submit("alice", "a1")).toEqual({ kind: "wait" });
    expect(pool.finish("mallory")).toEqual(["a1"]);
    expect(pool.finish("alice")).toEqual(["m2"]);
  });

  it("serves waiting callers in rounds, the one served longest ago first", () => {
    const pool = schedule();
    pool.submit("mallory", "m1");
    pool.submit("mallory", "m2");
    pool.submit("mallory", "m3");
    pool.submit("bob", "b1");
    pool.submit("bob", "b2");
    pool.submit("alice", "a1");
    const order: string[] = [];
    let running = "mallory";
    for (;;) {
      const [next] = pool.finish(running);
      if (next === undefined) break;
      order.push(next);
      running = next.startsWith("m") ? "mallory" : next.startsWith("b") ? "bob" : "alice";
    }
    expect(order).toEqual(["b1", "a1", "m2", "b2", "m3"]);
  });

  it("keeps a thread for other callers when one caller runs as many tasks as it may at once", () => {
    const pool = schedule({ slots: 2 });
    expect(pool.submit("mallory", "m1")).toEqual({ kind: "start" });
    expect(pool.submit("mallory", "m2")).toEqual({ kind: "wait" });
    expect(pool.submit("alice", "a1")).toEqual({ kind: "start" });
  });

  it("refuses a caller's task past its share of the pool, and not another caller's", () => {
    const pool = schedule({ perCaller: 3 });
    pool.submit("mallory", "m1");
    pool.submit("mallory", "m2");
    pool.submit("mallory", "m3");
    expect(pool.submit("mallory", "m4")).toEqual({ kind: "refused", reason: "caller_full" });
    expect(pool.submit("alice", "a1")).toEqual({ kind: "wait" });
    expect(pool.held("mallory")).toBe(3);
  });

  it("refuses any task when the whole queue is full", () => {
    const pool = schedule({ queue: 2 });
    pool.submit("a", "a1");
    pool.submit("b", "b1");
    pool.submit("c", "c1");
    expect(pool.submit("d", "d1")).toEqual({ kind: "refused", reason: "queue_full" });
  });

  it("forgets a caller with nothing left, and hands out every waiting task when drained", () => {
    const pool = schedule();
    pool.submit("alice", "a1");
    pool.submit("bob", "b1");
    pool.submit("bob", "b2");
    expect(pool.drain()).toEqual(["b1", "b2"]);
    expect(pool.finish("alice")).toEqual([]);
    expect(pool.held("alice")).toBe(0);
    expect(pool.held("bob")).toBe(0);
  });
});
