// Every index the MongoDB read models create at start is listed in docs/operations/mongodb-indexes.md (or mongodb.md)
// with the query it serves.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { mongoIndexes } from "../../../shared/adapters/mongodb/mongo.read-store.ts";

it("lists every MongoDB read-model index in the MongoDB operations pages, by collection and name", () => {
  const pages = ["docs/operations/mongodb.md", "docs/operations/mongodb-indexes.md"].map((page) =>
    readFileSync(page, "utf8"),
  );
  const rows = pages
    .join("\n")
    .split("\n")
    .filter((line) => line.startsWith("| `"));
  for (const index of mongoIndexes) {
    expect(
      rows.some((row) => row.startsWith(`| \`${index.collection}\` | \`${index.name}\``)),
      `${index.collection}.${index.name}`,
    ).toBe(true);
  }
  expect(mongoIndexes.length).toBeGreaterThan(20);
});
