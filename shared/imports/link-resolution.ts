// Obsidian's rule for finding the file a link names: an exact path from the vault's root first; otherwise
// every file whose path ends with the name, and when several do, the one with the shortest path. The paths are
// indexed by every suffix once, so resolving a link costs the same whatever the vault's size.
import { posix } from "node:path";

/** Fewer segments first, then the shorter path, then the path's order: which of several matches a link takes. */
function preferred(a: string, b: string): number {
  return a.split("/").length - b.split("/").length || a.length - b.length || a.localeCompare(b);
}

/** A percent-encoded path decoded, or as it is when it is not valid percent-encoding (`100%.png`). */
function decodedPath(target: string): string {
  try {
    return decodeURI(target);
  } catch {
    return target;
  }
}

export class VaultIndex {
  private readonly byPath = new Map<string, string>();
  /** For each path suffix after a `/` (`b/c.md`, `c.md` of `a/b/c.md`), in lower case: the preferred path ending so. */
  private readonly bySuffix = new Map<string, string>();

  /** `paths` as the vault holds them; `extension` is what a link may leave out (`.md` for notes). */
  constructor(
    paths: readonly string[],
    private readonly extension: string | null,
  ) {
    for (const path of paths) {
      const key = path.toLowerCase();
      this.byPath.set(key, path);
      for (let slash = key.indexOf("/"); slash !== -1; slash = key.indexOf("/", slash + 1)) {
        const suffix = key.slice(slash + 1);
        const held = this.bySuffix.get(suffix);
        if (held === undefined || preferred(key, held.toLowerCase()) < 0) this.bySuffix.set(suffix, path);
      }
    }
  }

  /** The path a link target names, or null when no file matches. Links compare without case, as Obsidian does. */
  resolve(target: string): string | null {
    const wanted = target
      .normalize("NFC")
      .trim()
      .replace(/^\.?\//, "")
      .toLowerCase();
    if (wanted === "") return null;
    const forms =
      this.extension && !wanted.endsWith(this.extension) ? [`${wanted}${this.extension}`, wanted] : [wanted];
    for (const form of forms) {
      const exact = this.byPath.get(form);
      if (exact) return exact;
    }
    const candidates = forms.flatMap((form) => this.bySuffix.get(form) ?? []);
    candidates.sort((a, b) => preferred(a.toLowerCase(), b.toLowerCase()));
    return candidates[0] ?? null;
  }

  /** A link relative to the linking note's directory (`../img/a.png`, as markdown image links often are). */
  resolveRelative(fromDirectory: string, target: string): string | null {
    const joined = posix.normalize(posix.join(fromDirectory, decodedPath(target)));
    if (joined.startsWith("..")) return this.resolve(target);
    return this.resolve(joined) ?? this.resolve(target);
  }
}
