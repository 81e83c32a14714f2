// Every index the MongoDB read models create at start is listed in docs/operations/mongodb.md with the query it serves.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { mongoIndexes } from "../../../shared/adapters/mongodb/mongo.read-store.ts";

it("lists every MongoDB read-model index in docs/operations/mongodb.md, by collection and name", () => {
  const rows = readFileSync("docs/operations/mongodb.md", "utf8").split("\n").filter((line) => line.startsWith("| `"));
  for (const index of mongoIndexes) {
    expect(rows.some((row) => row.startsWith(`| \`${index.collection}\` | \`${index.name}\``)), `${index.collection}.${index.name}`).toBe(true);
  }
  expect(mongoIndexes.length).toBeGreaterThan(20);
});
