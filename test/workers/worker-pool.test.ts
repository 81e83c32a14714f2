// The worker pool runs CPU-heavy tasks off the event loop, each within a time and a memory limit, and refuses
// work it cannot queue: each failure is an error of the catalogue a route can answer with.
import { afterEach, expect, it } from "vitest";
import { AppError } from "../../shared/errors/app-error.ts";
import { summariseLines } from "../../shared/history/line-diff.ts";
import { runAsCaller } from "../../shared/workers/pool-caller.ts";
import { WorkerPool, type WorkerPoolLimits } from "../../shared/workers/worker-pool.ts";

let pool: WorkerPool | null = null;
const started = (limits: Partial<WorkerPoolLimits> = {}): WorkerPool => {
  pool = new WorkerPool({ threads: 1, taskTimeLimitMs: 60_000, memoryMb: 256, queue: 8, ...limits });
  return pool;
};
afterEach(async () => {
  await pool?.close();
  pool = null;
});

const failureOf = (work: Promise<unknown>): Promise<unknown> =>
  work.then(
    () => null,
    (error: unknown) => error,
  );

/** Brackets whose parse is quadratic in one paragraph, with a link to this service so the parser runs. */
const bracketStorm = (count: number): string =>
  `[a](/api/v1/pages/00000000-0000-4000-8000-000000000000) ${"[x]".repeat(count)}`;

it("diffs two texts in a worker, answering what the line diff answers", async () => {
  const before = "one\ntwo\nthree\n";
  const after = "one\n2\nthree\nfour\n";
  expect(await started().run("lineDiff", { before, after })).toEqual(summariseLines(before, after));
});

it("keeps the event loop turning while a task parses", async () => {
  const running = started();
  await running.run("lineDiff", { before: "", after: "" });
  let turns = 0;
  const ticker = setInterval(() => (turns += 1), 1);
  const [found] = (await running.run("findVaultLinks", { markdowns: [bracketStorm(20_000)] })).links;
  clearInterval(ticker);
  expect(found).toHaveLength(1);
  expect(turns).toBeGreaterThan(1);
});

it("ends a task past its time limit with 422 too_complex, then runs the next on a fresh thread", async () => {
  const running = started({ taskTimeLimitMs: 300 });
  const failure = await failureOf(running.run("findVaultLinks", { markdowns: [bracketStorm(80_000)] }));
  expect(failure).toBeInstanceOf(AppError);
  expect(failure).toMatchObject({ code: "too_complex", status: 422 });
  expect(await running.run("lineDiff", { before: "a", after: "b" })).toEqual({ linesAdded: 1, linesRemoved: 1 });
});

it("ends a task that outgrows a thread's heap with 413 too_large, then runs the next", async () => {
  const running = started({ memoryMb: 32 });
  // 400,000 characters of emphasis: about 100,000 inline nodes, far beyond a 32 MB heap once parsed.
  const failure = await failureOf(running.run("findVaultLinks", { markdowns: [`/api/v1/ ${"*a* ".repeat(100_000)}`] }));
  expect(failure).toMatchObject({ code: "too_large", status: 413 });
  expect(await running.run("lineDiff", { before: "a", after: "a" })).toEqual({ linesAdded: 0, linesRemoved: 0 });
});

it("refuses a task with 503 and Retry-After when every thread is busy and the queue is full", async () => {
  const running = started({ queue: 1 });
  const busy = running.run("findVaultLinks", { markdowns: [bracketStorm(10_000)] });
  const queued = running.run("lineDiff", { before: "", after: "x" });
  const failure = await failureOf(running.run("lineDiff", { before: "", after: "y" }));
  expect(failure).toMatchObject({ code: "unavailable", status: 503, headers: { "retry-after": "5" } });
  await busy;
  expect(await queued).toEqual({ linesAdded: 1, linesRemoved: 0 });
});

it("fails a task with 503 and Retry-After when no thread can start", async () => {
  // A heap too small to load the thread's modules: the thread dies before it begins any task.
  const failure = await failureOf(started({ memoryMb: 4 }).run("lineDiff", { before: "", after: "x" }));
  expect(failure).toMatchObject({ code: "unavailable", status: 503, headers: { "retry-after": "5" } });
});

it("runs another caller's task next, after only the one running, however many one caller has queued", async () => {
  const running = started({ taskTimeLimitMs: 500, tasksPerCaller: 8 });
  await running.run("lineDiff", { before: "", after: "" });
  // Three tasks that each run to the time limit: queued in order, the victim's would wait for all three.
  const storms = Array.from({ length: 3 }, () =>
    runAsCaller("user:mallory", () => failureOf(running.run("findVaultLinks", { markdowns: [bracketStorm(80_000)] }))),
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await runAsCaller("user:alice", () => running.run("lineDiff", { before: "a", after: "b" }))).toEqual({
    linesAdded: 1,
    linesRemoved: 1,
  });
  // The first task, the storm running when the victim's was queued, and the victim's own.
  expect(running.completed).toBe(3);
  expect(await Promise.all(storms)).toMatchObject([
    { code: "too_complex" },
    { code: "too_complex" },
    { code: "too_complex" },
  ]);
}, 30_000);

it("refuses a caller's task past its share with 429 too_many_tasks and Retry-After, and takes another caller's", async () => {
  const running = started({ tasksPerCaller: 2, taskTimeLimitMs: 2_000 });
  const held = [0, 1].map(() =>
    runAsCaller("user:mallory", () => failureOf(running.run("findVaultLinks", { markdowns: [bracketStorm(80_000)] }))),
  );
  const refused = await runAsCaller("user:mallory", () =>
    failureOf(running.run("lineDiff", { before: "", after: "x" })),
  );
  expect(refused).toMatchObject({ code: "too_many_tasks", status: 429, headers: { "retry-after": "2" } });
  expect(await runAsCaller("user:alice", () => running.run("lineDiff", { before: "", after: "x" }))).toEqual({
    linesAdded: 1,
    linesRemoved: 0,
  });
  await Promise.all(held);
}, 30_000);
