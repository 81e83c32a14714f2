// An import's answer is recorded under its Idempotency-Key as one event, so however many files it reports, the
// answer stays inside the size of one change: the key completes, and a retry of the same request replays the
// answer instead of failing or importing again.
import { afterAll, beforeAll, expect, it } from "vitest";
import { IMPORT_ERRORS_SHOWN } from "../../../services/command-api/imports/import-result.ts";
import { TestServer } from "../../support/server.ts";
import { importVault, resolve } from "../../support/vault-import.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

it("an import reporting thousands of skipped files completes its key: the answer lists the first ones with a count of the rest, and the same key replays it", async () => {
  const ann = await server.registered("ann");
  // 4,000 files no note links (an import skips them), each with a long path: their reasons weigh about 3.5 MB together.
  const directory = "attachments-".padEnd(800, "x");
  const skipped = Array.from({ length: 4_000 }, (_, index) => ({
    path: `${directory}/file-${index}.txt`,
    content: "text",
  }));
  const files = [{ path: "Kept.md", content: "The one note." }, ...skipped];
  const headers = { "idempotency-key": "big-import-1" };

  const first = await importVault(ann, files, headers);
  expect(first.status, first.text.slice(0, 300)).toBe(201);
  const answer = first.body as { pagesCreated: number; errors: string[]; errorsOmitted?: number };
  expect(answer.pagesCreated).toBe(1);
  expect(answer.errors.length).toBeGreaterThan(0);
  expect(answer.errors.length).toBeLessThanOrEqual(IMPORT_ERRORS_SHOWN);
  expect(answer.errors[0]).toContain("skipped: no imported note links this file");
  expect(answer.errors.length + (answer.errorsOmitted ?? 0)).toBe(4_000);

  const replayed = await importVault(ann, files, headers);
  expect(replayed.status, replayed.text.slice(0, 300)).toBe(201);
  expect(replayed.headers.get("idempotent-replayed")).toBe("true");
  expect(replayed.body).toEqual(first.body);
  // Nothing was imported twice.
  expect(await resolve(ann, "Kept")).toHaveLength(1);
});
