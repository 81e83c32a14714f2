// Profiles the two fan-out writes of the worst-case table on a fresh all-in-one server started with --cpu-prof:
// an empty folder given to a group of many members (each notified), and a folder of many pages moved under a
// folder those members read (through a second group, as in the worst-case fixture). Builds the input through the
// HTTP API, times each write while a probe asks /healthz every 10 ms, stops the server and prints the profile's
// self time per function within each write's window.
// Usage: node --import tsx bench/fanout-profile.ts [members=1000] [pages=200]
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callerOf, jsonHeaders, type Caller } from "./worst/fixture/calls.ts";
import { startChild } from "./processes.ts";

const members = Number(process.argv[2] ?? 1_000);
const pages = Number(process.argv[3] ?? 200);
const secret = "fanout-profile-secret-of-at-least-32-characters";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  startTime: number;
  endTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), "fanout-profile-"));
  const profileDir = await mkdtemp(join(tmpdir(), "fanout-profile-cpu-"));
  const server = await startChild(
    "services/all-in-one.ts",
    { DATA_DIR: dataDir, AUTH_SESSION_SECRET: secret, LOG_LEVEL: "warn" },
    "/readyz",
    ["--cpu-prof", `--cpu-prof-dir=${profileDir}`],
  );
  const api = `${server.url}/api/v1`;
  const call = async (caller: Caller, method: string, path: string, body?: unknown) => {
    const reply = await fetch(`${api}${path}`, {
      method,
      headers: jsonHeaders(caller),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await reply.text();
    if (reply.status >= 400) throw new Error(`${method} ${path} answered ${reply.status}: ${text.slice(0, 200)}`);
    return JSON.parse(text || "{}") as Record<string, unknown>;
  };
  const windows: Array<{ label: string; from: number; to: number }> = [];
  let stoppedAt = 0;
  /** Runs `write` while /healthz is asked every 10 ms; prints the write's time and the probe's p99 and max. */
  const probed = async (label: string, write: () => Promise<unknown>) => {
    const latencies: number[] = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const sent = performance.now();
        await fetch(`${server.url}/healthz`).then((r) => r.text());
        latencies.push(performance.now() - sent);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const from = performance.now();
    await write();
    const to = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    probing = false;
    await probe;
    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? 0;
    console.log(
      `${label}: ${Math.round(to - from)} ms; probe p99 ${Math.round(p99)} ms, max ${Math.round(latencies.at(-1) ?? 0)} ms`,
    );
    return { label, from, to: to + 1_000 };
  };
  try {
    const owner = await callerOf(api, secret, "owner");
    const groupId = String((await call(owner, "POST", "/groups", { name: "Crowd" })).id);
    const readersId = String((await call(owner, "POST", "/groups", { name: "Readers" })).id);
    for (let start = 0; start < members; start += 16) {
      const made = await Promise.all(
        Array.from({ length: Math.min(16, members - start) }, () => callerOf(api, secret, "m")),
      );
      for (const member of made) {
        await call(owner, "POST", `/groups/${groupId}/members`, { email: member.email });
        await call(owner, "POST", `/groups/${readersId}/members`, { email: member.email });
      }
    }
    const emptyFolder = String((await call(owner, "POST", "/folders", { name: "Given" })).id);
    for (const name of ["Shared", "Moved"])
      await call(owner, "POST", "/imports/obsidian", {
        files: Array.from({ length: pages }, (_, i) => ({ path: `${name}/Note ${i}.md`, content: `# Note ${i}\n` })),
      });
    const folders = (await call(owner, "GET", "/folders?limit=100")).data as Array<{ id: string; name: string }>;
    const shared = folders.find((f) => f.name === "Shared")?.id ?? "";
    const moved = folders.find((f) => f.name === "Moved")?.id ?? "";
    await call(owner, "POST", `/shares/entity/folder/${shared}/grants`, { groupId: readersId, permission: "view" });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    windows.push(
      await probed(`grant an empty folder to a group of ${members}`, () =>
        call(owner, "POST", `/shares/entity/folder/${emptyFolder}/grants`, { groupId, permission: "view" }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    windows.push(
      await probed(`move a folder of ${pages} pages under one ${members} members read`, () =>
        call(owner, "POST", `/folders/${moved}/move`, { parentId: shared }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 3_000));
  } finally {
    stoppedAt = performance.now();
    await server.stop();
  }
  const file = (await readdir(profileDir)).find((name) => name.endsWith(".cpuprofile"));
  if (!file) throw new Error("no profile written");
  const profile = JSON.parse(await readFile(join(profileDir, file), "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  // The profile's clock is the server's: its end is taken as the moment the server was stopped.
  const endMs = profile.endTime / 1_000;
  for (const window of windows) {
    const self = new Map<string, number>();
    let total = 0;
    let at = profile.startTime / 1_000;
    profile.samples.forEach((id, i) => {
      at += (profile.timeDeltas[i] ?? 0) / 1_000;
      const wall = stoppedAt - (endMs - at);
      if (wall < window.from || wall > window.to) return;
      const frame = byId.get(id)?.callFrame;
      const delta = profile.timeDeltas[i] ?? 0;
      if (frame?.functionName === "(idle)") return;
      total += delta;
      const key = `${frame?.functionName || "(anonymous)"} ${frame?.url.replace(/^.*\/(fanout3|main)\//, "") ?? ""}:${frame?.lineNumber ?? 0}`;
      self.set(key, (self.get(key) ?? 0) + delta);
    });
    console.log(`\n${window.label}: ${Math.round(total / 1_000)} ms busy; self time share of it:`);
    for (const [key, micros] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 15))
      console.log(`${((100 * micros) / total).toFixed(1).padStart(5)}%  ${key}`);
  }
  console.log(`profile ${join(profileDir, file)}`);
}

await main();
