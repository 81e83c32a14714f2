import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, PAGE_CACHE_MB } from "../../../shared/adapters/sqlite/open-database.ts";

// What each connection may keep of its file in memory is part of the server's resident size
// (docs/operations/embedded.md, "Memory"); an operator reads it back with PRAGMA cache_size.
describe("SQLite page cache budgets", () => {
  let dir = "";
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("gives the read models' connections 16 MB and the append-only logs SQLite's default 2 MB", async () => {
    dir = await mkdtemp(join(tmpdir(), "page-cache-"));
    const readModels = openDatabase(join(dir, "read-models.sqlite"), { cacheMb: PAGE_CACHE_MB.readModels });
    const log = openDatabase(join(dir, "events.sqlite"), { cacheMb: PAGE_CACHE_MB.log });
    expect(readModels.pragma("cache_size", { simple: true })).toBe(-16 * 1024);
    expect(log.pragma("cache_size", { simple: true })).toBe(-2 * 1024);
    readModels.close();
    log.close();
  });
});
