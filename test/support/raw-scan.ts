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

/** The files under `dir` whose raw bytes hold one of `needles`, compared case-insensitively. */
export function filesHolding(dir: string, needles: readonly string[]): string[] {
  const lower = needles.map((needle) => needle.toLowerCase());
  return filesUnder(dir).filter((file) => {
    const text = readFileSync(file).toString("latin1").toLowerCase();
    return lower.some((needle) => text.includes(needle));
  });
}
