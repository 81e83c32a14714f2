// npm runs a dependency's install scripts only when package.json's `allowScripts` approves it (npm 11 warns about
// the rest, npm 12 skips them), so that list is reviewed code: every package of the lockfile with an install
// script must be named there, approved or denied, and the list names nothing else. A dependency update that
// brings a new install script fails here until someone decides on it (docs/operations/embedded.md, "Install scripts").
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const lockfileSchema = z.object({
  packages: z.record(
    z.string(),
    z.object({ version: z.string().optional(), name: z.string().optional(), hasInstallScript: z.boolean().optional() }),
  ),
});
const manifestSchema = z.object({ allowScripts: z.record(z.string(), z.boolean()).default({}) });

/** `better-sqlite3` or `@scarf/scarf` from `node_modules/a/node_modules/@scarf/scarf`; an alias keeps its own name. */
const nameOf = (path: string, name: string | undefined): string =>
  name ?? path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);

/** An allowScripts key as npm reads it: a name, or a name pinned to versions (`pkg@1.2.3`, `@scope/pkg@1.2.3`). */
function keyName(key: string): string {
  const at = key.indexOf("@", 1);
  return at === -1 ? key : key.slice(0, at);
}

async function installScripts(): Promise<Map<string, Set<string>>> {
  const lockfile = lockfileSchema.parse(JSON.parse(await readFile("package-lock.json", "utf8")));
  const found = new Map<string, Set<string>>();
  for (const [path, entry] of Object.entries(lockfile.packages)) {
    if (path === "" || entry.hasInstallScript !== true) continue;
    const name = nameOf(path, entry.name);
    found.set(name, (found.get(name) ?? new Set<string>()).add(entry.version ?? "?"));
  }
  return found;
}

describe("install scripts", () => {
  it("are each approved or denied in package.json's allowScripts, which names no package without one", async () => {
    const { allowScripts } = manifestSchema.parse(JSON.parse(await readFile("package.json", "utf8")));
    const scripts = await installScripts();
    const reviewed = new Set(Object.keys(allowScripts).map(keyName));
    const unreviewed = [...scripts]
      .filter(([name]) => !reviewed.has(name))
      .map(([name, versions]) => `${name}@${[...versions].join(", ")}`);
    expect(
      unreviewed,
      "add each to allowScripts in package.json: true if the project needs its script, false if not",
    ).toEqual([]);
    expect(
      [...reviewed].filter((name) => !scripts.has(name)),
      "allowScripts names packages that no longer run an install script",
    ).toEqual([]);
  });

  it("let no install script run: better-sqlite3, which the quick start needs, ships its binary inside the package", async () => {
    const { allowScripts } = manifestSchema.parse(JSON.parse(await readFile("package.json", "utf8")));
    expect(
      Object.entries(allowScripts)
        .filter(([, allowed]) => allowed)
        .map(([key]) => key),
    ).toEqual([]);
    expect((await installScripts()).has("better-sqlite3")).toBe(false);
  });
});
