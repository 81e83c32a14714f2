// Shares of a V8 CPU profile (`node --cpu-prof`), within a time window: self time by function, by file and by
// package, and the time spent under chosen functions (their whole call trees). Shares, not rates: the machine is
// shared, so only where the time goes within one run means anything.
// `npx tsx bench/cpu-profile-summary.ts FILE.cpuprofile [FROM_MS] [TO_MS]` prints it for a profile.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const profileSchema = z.object({
  nodes: z.array(
    z.object({
      id: z.number(),
      callFrame: z.object({ functionName: z.string(), url: z.string(), lineNumber: z.number() }),
      children: z.array(z.number()).optional(),
    }),
  ),
  samples: z.array(z.number()),
  timeDeltas: z.array(z.number()),
});

interface Share {
  readonly name: string;
  /** Per cent of the busy samples in the window (idle samples excluded). */
  readonly percent: number;
}

interface ProfileSummary {
  readonly busyMs: number;
  readonly idlePercent: number;
  readonly byFunction: Share[];
  readonly byFile: Share[];
  readonly byPackage: Share[];
  /** Time with a function of ours (or a named one) anywhere on the stack. */
  readonly under: Share[];
}

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));

/** A file's short name: repo-relative for ours, `pkg/path` inside node_modules, `node:…` for Node's own. */
function fileOf(url: string): string {
  if (url === "") return "(native)";
  const path = url.startsWith("file://") ? fileURLToPath(url) : url;
  const modules = path.lastIndexOf("node_modules/");
  if (modules >= 0) return path.slice(modules + "node_modules/".length);
  return path.startsWith(REPO_ROOT) ? path.slice(REPO_ROOT.length) : path;
}

/** The package a file belongs to: `ours: shared/http`, `fastify`, `node:internal/http`… */
function packageOf(file: string, url: string): string {
  if (url === "") return "(native)";
  if (url.startsWith("node:")) return file.split("/").slice(0, 2).join("/");
  if (url.includes("node_modules/")) {
    const parts = file.split("/");
    return file.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? file);
  }
  return `ours: ${file.split("/").slice(0, 2).join("/")}`;
}

const top = (counts: Map<string, number>, total: number, n: number): Share[] =>
  [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, count]) => ({ name, percent: (100 * count) / Math.max(1, total) }));

const add = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

/** Samples taken between `fromMs` and `toMs` after the profile started (all of them by default). */
export function summariseProfile(
  raw: unknown,
  window: { fromMs?: number; toMs?: number } = {},
  rows = 25,
): ProfileSummary {
  const profile = profileSchema.parse(raw);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const functionName = (id: number): string => {
    const frame = byId.get(id)?.callFrame;
    if (!frame) return "?";
    const name = frame.functionName || "(anonymous)";
    return frame.url === "" ? name : `${name} ${fileOf(frame.url)}:${frame.lineNumber + 1}`;
  };
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  const byPackage = new Map<string, number>();
  const under = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  let elapsedUs = 0;
  let busyUs = 0;
  const fromUs = (window.fromMs ?? 0) * 1000;
  const toUs = (window.toMs ?? Number.POSITIVE_INFINITY) * 1000;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    elapsedUs += delta;
    if (elapsedUs < fromUs || elapsedUs > toUs) return;
    const frame = byId.get(id)?.callFrame;
    if (!frame) return;
    if (frame.functionName === "(idle)") {
      idle += 1;
      return;
    }
    busy += 1;
    busyUs += delta;
    add(byFunction, functionName(id));
    const file = fileOf(frame.url);
    add(byFile, file);
    add(byPackage, packageOf(file, frame.url));
    // Each function of ours on the stack once, so a recursive one is not counted twice.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const caller = byId.get(at)?.callFrame;
      if (caller && !caller.url.includes("node_modules/") && caller.url.startsWith("file://")) {
        seen.add(functionName(at));
      }
    }
    for (const name of seen) add(under, name);
  });
  return {
    busyMs: busyUs / 1000,
    idlePercent: (100 * idle) / Math.max(1, busy + idle),
    byFunction: top(byFunction, busy, rows),
    byFile: top(byFile, busy, rows),
    byPackage: top(byPackage, busy, rows),
    under: top(under, busy, rows),
  };
}

export function renderSummary(summary: ProfileSummary): string {
  const table = (title: string, shares: Share[]) =>
    [`${title}`, ...shares.map((s) => `  ${s.percent.toFixed(1).padStart(5)}%  ${s.name}`)].join("\n");
  return [
    `busy ${summary.busyMs.toFixed(0)} ms of CPU in the window, idle ${summary.idlePercent.toFixed(1)}% of samples`,
    table("self time by package", summary.byPackage),
    table("self time by file", summary.byFile),
    table("self time by function", summary.byFunction),
    table("time under our functions (whole call tree)", summary.under),
  ].join("\n\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [file, from, to] = process.argv.slice(2);
  if (!file) throw new Error("usage: cpu-profile-summary.ts FILE.cpuprofile [FROM_MS] [TO_MS]");
  const window = {
    ...(from === undefined ? {} : { fromMs: Number(from) }),
    ...(to === undefined ? {} : { toMs: Number(to) }),
  };
  process.stdout.write(`${renderSummary(summariseProfile(JSON.parse(readFileSync(file, "utf8")), window, 40))}\n`);
}
