// No source file imports, through any chain, a file that imports it back, type-only imports included: every
// folder tsconfig.json type-checks is read as one graph (docs/contributing/architecture.md, "Imports").
import { statSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { importCycles, importGraph } from "../support/import-graph.ts";

/** The folders tsconfig.json includes: services, shared, client, bench, deploy and test. */
function sourceFolders(base: string): string[] {
  const { config, error } = ts.readConfigFile(join(base, "tsconfig.json"), ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, "\n"));
  const include: unknown = (config as { include?: unknown } | undefined)?.include;
  if (!Array.isArray(include)) throw new Error("tsconfig.json has no include list");
  return include.filter(
    (entry): entry is string => typeof entry === "string" && statSync(join(base, entry)).isDirectory(),
  );
}

describe("import cycles", () => {
  it("no source folder has one, within a folder or across folders", () => {
    const folders = sourceFolders(process.cwd());
    expect(folders).toEqual(expect.arrayContaining(["services", "shared", "client", "bench", "deploy", "test"]));
    const graph = importGraph(process.cwd(), ...folders);
    for (const folder of folders)
      expect(
        [...graph.keys()].some((file) => file.startsWith(`${folder}/`)),
        folder,
      ).toBe(true);
    expect(importCycles(graph), "each list is files that import each other, directly or through others").toEqual([]);
  });

  it("are found through type-only imports, re-exports and import() calls, in a file importing itself, and across folders", async () => {
    const base = await mkdtemp(join(tmpdir(), "import-cycles-"));
    try {
      await mkdir(join(base, "src", "routes"), { recursive: true });
      await mkdir(join(base, "other"), { recursive: true });
      const files: Record<string, string> = {
        "src/register.ts": 'import { route } from "./routes/route.ts";\nexport const register = () => route;\n',
        "src/routes/route.ts":
          'import type { Ports } from "./ports.ts";\nexport const route = (ports: Ports) => ports;\n',
        "src/routes/ports.ts": 'export * from "../register.ts";\nexport interface Ports { readonly name: string }\n',
        "src/lazy.ts": 'export const later = () => import("./eager.ts");\n',
        "src/eager.ts":
          'import { later } from "./lazy.ts";\nimport { z } from "zod";\nexport const now = [later, z];\n',
        "src/self.ts": 'export * from "./self.ts";\n',
        "src/alone.ts": 'import { now } from "./eager.ts";\nexport const alone = now;\n',
        "src/there.ts": 'import type { Back } from "../other/back.ts";\nexport type There = Back;\n',
        "other/back.ts": 'import type { There } from "../src/there.ts";\nexport type Back = { there?: There };\n',
      };
      for (const [path, text] of Object.entries(files)) await writeFile(join(base, path), text);
      expect(importCycles(importGraph(base, "src")).sort()).toEqual([
        ["src/eager.ts", "src/lazy.ts"],
        ["src/register.ts", "src/routes/ports.ts", "src/routes/route.ts"],
        ["src/self.ts"],
      ]);
      expect(importCycles(importGraph(base, "src", "other")).sort()).toEqual([
        ["other/back.ts", "src/there.ts"],
        ["src/eager.ts", "src/lazy.ts"],
        ["src/register.ts", "src/routes/ports.ts", "src/routes/route.ts"],
        ["src/self.ts"],
      ]);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
