// docs/operations/configuration.md with its sign-in and tracing pages list exactly the variables of the config
// schema, each with its default.
import { availableParallelism } from "node:os";
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { configSchema } from "../../shared/config/config.ts";

const PAGES = [
  "docs/operations/configuration.md",
  "docs/operations/configuration-sign-in.md",
  "docs/operations/tracing.md",
];
const rows = new Map(
  PAGES.flatMap((page) => readFileSync(page, "utf8").split("\n"))
    .map((line) => /^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*) \|/.exec(line))
    .filter((match) => match !== null)
    .map((match) => [match[1] ?? "", (match[2] ?? "").trim()] as const),
);
const defaults = configSchema.parse({});
const variables = Object.keys(configSchema.shape);

it("lists every variable of the config schema, and no other", () => {
  expect([...rows.keys()].sort()).toEqual([...variables].sort());
});

it("gives each variable the default the schema has", () => {
  const wrong: string[] = [];
  for (const variable of variables) {
    const value: unknown = defaults[variable as keyof typeof defaults];
    const cell = rows.get(variable) ?? "";
    if (value === undefined) {
      if (/^\d/.test(cell)) wrong.push(`${variable}: the schema has no default, the page says ${cell}`);
    } else if (
      typeof value === "number" &&
      value === Math.max(1, availableParallelism() - 1) &&
      cell.startsWith("cores")
    ) {
      continue;
    } else if (typeof value === "number" || typeof value === "string" || typeof value === "boolean") {
      if (!cell.startsWith(String(value)))
        wrong.push(`${variable}: the schema's default is ${String(value)}, the page says ${cell}`);
    }
  }
  expect(wrong).toEqual([]);
});
