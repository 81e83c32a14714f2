// What an erasure test reads: the raw bytes of every file under a directory (a store's WAL and free pages
// included), searched for words case-insensitively.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** Every file under `dir`, recursively (none while it does not exist). */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Whether the raw bytes of `file` hold one of `needles`, compared case-insensitively. */
export function fileHolds(file: string, needles: readonly string[]): boolean {
  const text = readFileSync(file).toString("latin1").toLowerCase();
  return needles.some((needle) => text.includes(needle.toLowerCase()));
}

/** The files under `dir` whose raw bytes hold one of `needles`, compared case-insensitively. */
export function filesHolding(dir: string, needles: readonly string[]): string[] {
  return filesUnder(dir).filter((file) => fileHolds(file, needles));
}
