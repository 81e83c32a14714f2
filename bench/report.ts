// The benchmark's table: each figure beside its reference from the same run, its target, and a plain verdict;
// and the results file a run leaves in bench/results/.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface Row {
  readonly figure: string;
  readonly value: string;
  readonly reference: string;
  readonly ratio: string;
  /** The same-bytes ceiling of an HTTP row and the row's ratio to it. */
  readonly sameBytes?: string;
  /** The in-process limit of a read (the raw query without HTTP) and the row's ratio to it. */
  readonly inProcess?: string;
  readonly target: string;
  readonly verdict: "met" | "MISSED" | "report" | "not built";
}

export const fmt = (n: number, digits = 0): string =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function verdict(ok: boolean): Row["verdict"] {
  return ok ? "met" : "MISSED";
}

export function renderTable(rows: readonly Row[]): string {
  const headers = [
    "figure",
    "value",
    "reference (same run)",
    "ratio",
    "same-bytes ceiling",
    "in-process limit",
    "target",
    "verdict",
  ];
  const cells = rows.map((r) => [
    r.figure,
    r.value,
    r.reference,
    r.ratio,
    r.sameBytes ?? "—",
    r.inProcess ?? "—",
    r.target,
    r.verdict,
  ]);
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? "").length)));
  const line = (values: string[]) => `| ${values.map((v, i) => v.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n");
}

/** Writes a run's figures and rows to bench/results/<date and time><suffix>.json and logs where. */
export function writeResults(suffix: string, results: unknown, log: (line: string) => void): void {
  mkdirSync("bench/results", { recursive: true });
  const file = join("bench/results", `${new Date().toISOString().replaceAll(":", "-").slice(0, 19)}${suffix}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  log(`results written to ${file}`);
}
