// services/ holds no import cycle, type-only imports included: a route imports its service's ports from the
// ports file, never from the file that registers it (docs/architecture.md, "Imports").
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importCycles, importGraph } from "../support/import-graph.ts";

describe("import cycles", () => {
  it("services/ has none", () => {
    const graph = importGraph(process.cwd(), "services");
    expect(graph.size).toBeGreaterThan(50);
    expect(importCycles(graph), "each list is files that import each other, directly or through others").toEqual([]);
  });

  it("are found through type-only imports, re-exports and import() calls, and in a file importing itself", async () => {
    const base = await mkdtemp(join(tmpdir(), "import-cycles-"));
    try {
      await mkdir(join(base, "src", "routes"), { recursive: true });
      const files: Record<string, string> = {
        "src/register.ts": 'import { route } from "./routes/route.ts";\nexport const register = () => route;\n',
        "src/routes/route.ts": 'import type { Ports } from "./ports.ts";\nexport const route = (ports: Ports) => ports;\n',
        "src/routes/ports.ts": 'export * from "../register.ts";\nexport interface Ports { readonly name: string }\n',
        "src/lazy.ts": 'export const later = () => import("./eager.ts");\n',
        "src/eager.ts": 'import { later } from "./lazy.ts";\nimport { z } from "zod";\nexport const now = [later, z];\n',
        "src/self.ts": 'export * from "./self.ts";\n',
        "src/alone.ts": 'import { now } from "./eager.ts";\nexport const alone = now;\n',
      };
      for (const [path, text] of Object.entries(files)) await writeFile(join(base, path), text);
      expect(importCycles(importGraph(base, "src")).sort()).toEqual([
        ["src/eager.ts", "src/lazy.ts"],
        ["src/register.ts", "src/routes/ports.ts", "src/routes/route.ts"],
        ["src/self.ts"],
      ]);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
