// Obsidian's rule for finding the file a link names: an exact path from the vault's root first; otherwise
// every file whose path ends with the name, and when several do, the one with the shortest path.
import { posix } from "node:path";

export class VaultIndex {
  private readonly byPath = new Map<string, string>();

  /** `paths` as the vault holds them; `extension` is what a link may leave out (`.md` for notes). */
  constructor(
    paths: readonly string[],
    private readonly extension: string | null,
  ) {
    for (const path of paths) this.byPath.set(path.toLowerCase(), path);
  }

  /** The path a link target names, or null when no file matches. Links compare without case, as Obsidian does. */
  resolve(target: string): string | null {
    const wanted = target.normalize("NFC").trim().replace(/^\.?\//, "").toLowerCase();
    if (wanted === "") return null;
    const forms = this.extension && !wanted.endsWith(this.extension) ? [`${wanted}${this.extension}`, wanted] : [wanted];
    for (const form of forms) {
      const exact = this.byPath.get(form);
      if (exact) return exact;
    }
    const candidates = [...this.byPath.entries()].filter(([path]) => forms.some((form) => path.endsWith(`/${form}`)));
    if (candidates.length === 0) return null;
    candidates.sort(([a], [b]) => a.split("/").length - b.split("/").length || a.length - b.length || a.localeCompare(b));
    return candidates[0]?.[1] ?? null;
  }

  /** A link relative to the linking note's directory (`../img/a.png`, as markdown image links often are). */
  resolveRelative(fromDirectory: string, target: string): string | null {
    const joined = posix.normalize(posix.join(fromDirectory, decodeURI(target)));
    if (joined.startsWith("..")) return this.resolve(target);
    return this.resolve(joined) ?? this.resolve(target);
  }
}
