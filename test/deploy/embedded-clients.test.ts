// An embedded process (SQLite files in DATA_DIR) never loads the EventStoreDB or MongoDB clients: together they
// hold about 13 MB of live heap and 40 MB of resident memory (docs/operations/embedded.md, "Memory").
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

// Both clients are CommonJS packages, so loading them from ES modules records them in require.cache.
const probe = `
const { createRequire } = await import("node:module");
await import("./services/all-in-one.ts");
const loaded = Object.keys(createRequire(import.meta.url).cache);
console.log(JSON.stringify(["/node_modules/mongodb/", "/node_modules/@kurrent/kurrentdb-client/", "/node_modules/pino/"].map((dir) => loaded.some((file) => file.includes(dir)))));
`;

describe("the embedded server's dependencies", () => {
  it("loads neither the MongoDB nor the EventStoreDB client when neither URL is set", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", probe], {
      encoding: "utf8",
    });
    expect(run.status, run.stderr).toBe(0);
    // pino, loaded by every server, shows that the probe sees CommonJS packages at all.
    expect(JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "null")).toEqual([false, false, true]);
  });
});
