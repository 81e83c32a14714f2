// Imported notes are parsed in the worker pool, whose threads have a bounded heap: a note whose parse needs more
// is reported too large and the pool goes on with a fresh thread; a thread that cannot start at all fails the
// import with 503 (nothing was wrong with the notes) rather than an internal error.
import { afterEach, expect, it } from "vitest";
import { AppError } from "../../shared/errors/app-error.ts";
import { NoteRewriter } from "../../shared/imports/note-rewriter.ts";
import { WorkerPool } from "../../shared/workers/worker-pool.ts";

const links = { scope: "vault", notePaths: ["a.md", "b.md"], images: [], attachmentPaths: [] };
let rewriter: NoteRewriter | null = null;
afterEach(async () => {
  await rewriter?.close();
  rewriter = null;
});

it("reports a note whose parse outgrows the worker's heap as too large, then rewrites the next note", async () => {
  rewriter = new NoteRewriter(new WorkerPool({ threads: 1, taskTimeLimitMs: 60_000, memoryMb: 32, queue: 8 }), {
    noteTimeLimitMs: 60_000,
  });
  const session = rewriter.session(links);
  // 200,000 characters of emphasis: about 50,000 inline nodes, far beyond a 32 MB heap once parsed.
  expect(await session.rewrite({ path: "a.md", directory: "", markdown: "*a* ".repeat(50_000) })).toEqual({
    kind: "too_large",
  });
  const next = await session.rewrite({ path: "b.md", directory: "", markdown: "Back to [[a]]." });
  expect(next).toMatchObject({
    kind: "rewritten",
    note: { markdown: expect.stringMatching(/^Back to \[a\]\(\/api\/v1\/pages\/[0-9a-f-]{36}\)\.$/), backlinks: 1 },
  });
});

it("fails a rewrite with 503 unavailable when its worker cannot start", async () => {
  // A heap too small to load the parser's modules: the thread dies before it is ready.
  rewriter = new NoteRewriter(new WorkerPool({ threads: 1, taskTimeLimitMs: 60_000, memoryMb: 4, queue: 8 }), {
    noteTimeLimitMs: 60_000,
  });
  const failure = await rewriter
    .session(links)
    .rewrite({ path: "a.md", directory: "", markdown: "Plain." })
    .then(
      () => null,
      (error: unknown) => error,
    );
  expect(failure).toBeInstanceOf(AppError);
  expect(failure).toMatchObject({ code: "unavailable", status: 503, headers: { "retry-after": "5" } });
});
