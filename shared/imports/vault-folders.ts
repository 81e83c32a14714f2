// The folders an import makes from its notes' directories. Directories that differ only in case (`Dir`, `dir`)
// are one folder, spelled as the first note that names it does, as they are one directory on the systems vaults
// come from. A directory whose name a folder may not have (the rule is the caller's: POST /folders's) makes no
// folder, and the notes below it are reported and skipped. Pure.
import { posix } from "node:path";
import type { VaultNote } from "./vault-files.ts";

export interface VaultFolders {
  /** The notes to import, each with its directory as the folder's path spells it. */
  readonly notes: VaultNote[];
  /** Every folder to make or reuse, parents before children: `Projects`, `Projects/2026`. */
  readonly directories: string[];
  readonly errors: string[];
}

/** Why `name` cannot be a folder's name, or null when it can. */
export type FolderNameRule = (name: string) => string | null;

export function planFolders(notes: readonly VaultNote[], folderNameProblem: FolderNameRule): VaultFolders {
  /** Lower-cased directory path to its spelling, or to why it makes no folder. */
  const known = new Map<string, { path: string; problem: string | null }>();
  const place = (directory: string): { path: string; problem: string | null } => {
    const key = directory.toLowerCase();
    const held = known.get(key);
    if (held) return held;
    const parentPath = posix.dirname(directory) === "." ? "" : posix.dirname(directory);
    const parent = parentPath === "" ? { path: "", problem: null } : place(parentPath);
    const name = posix.basename(directory);
    const own = parent.problem === null ? folderNameProblem(name) : null;
    const placed = {
      path: parent.path === "" ? name : `${parent.path}/${name}`,
      problem: parent.problem ?? (own === null ? null : `the folder ${JSON.stringify(name)} cannot be made: ${own}`),
    };
    known.set(key, placed);
    return placed;
  };

  const kept: VaultNote[] = [];
  const errors: string[] = [];
  const directories = new Set<string>();
  for (const note of notes) {
    if (note.directory === "") {
      kept.push(note);
      continue;
    }
    const folder = place(note.directory);
    if (folder.problem !== null) {
      errors.push(`${JSON.stringify(note.path)}: skipped: ${folder.problem}`);
      continue;
    }
    kept.push({ ...note, directory: folder.path });
    for (let path = folder.path; path !== ""; path = posix.dirname(path) === "." ? "" : posix.dirname(path))
      directories.add(path);
  }
  const ordered = [...directories].sort((a, b) => a.split("/").length - b.split("/").length || a.localeCompare(b));
  return { notes: kept, directories: ordered, errors };
}
