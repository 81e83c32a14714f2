// The project's import graph, read with the TypeScript compiler's own pre-processor (static imports and
// re-exports, `import type` included, and `import()` calls), and its cycles as strongly connected components.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** Each .ts file under the `roots` (relative to `base`), with the project files it imports: one graph, so a cycle through two roots is in it. */
export function importGraph(base: string, ...roots: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const files = roots.flatMap((root) =>
    readdirSync(join(base, root), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
      .map((file) => join(root, file)),
  );
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(base, file), "utf8"), true, true);
    const imported = importedFiles
      .map(({ fileName }) => fileName)
      .filter((name) => name.startsWith("."))
      .map((name) => relative(base, resolve(base, dirname(file), name)));
    graph.set(file, [...new Set(imported)]);
  }
  return graph;
}

/** The graph's cycles: each set of two or more files that reach each other, and each file that imports itself (Tarjan). */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(member);
      if (member === file) break;
    }
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/**
 * For each file `from` accepts, the shortest chain of imports by which it reaches each file `to` accepts (not
 * followed further), as `a.ts -> b.ts -> c.ts`; `through` limits the files a chain may pass through.
 */
export function importChains(
  graph: ReadonlyMap<string, readonly string[]>,
  rule: { from(file: string): boolean; to(file: string): boolean; through?(file: string): boolean },
): string[] {
  const chains: string[] = [];
  for (const start of [...graph.keys()].filter((file) => rule.from(file)).sort()) {
    const cameFrom = new Map<string, string | null>([[start, null]]);
    const queue = [start];
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      for (const next of graph.get(file) ?? []) {
        if (cameFrom.has(next) || !graph.has(next)) continue;
        cameFrom.set(next, file);
        if (rule.to(next)) {
          const chain = [next];
          for (let step = cameFrom.get(next); step !== null && step !== undefined; step = cameFrom.get(step))
            chain.unshift(step);
          chains.push(chain.join(" -> "));
        } else if (rule.through?.(next) ?? true) {
          queue.push(next);
        }
      }
    }
  }
  return chains;
}
