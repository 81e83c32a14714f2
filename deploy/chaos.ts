// `npm run chaos`: the split deployment (deploy/split) under a steady mixed load through its gateway (writes
// read back at once with their consistency token, lists, an open change feed, a webhook to a local receiver),
// with faults injected one after another: kill -9 of the projector, the command API, a query node and the
// notifier (each started again by the supervisor, as compose's restart policy does); NATS stopped for 20 s; the
// projector, command API and notifier restarted while NATS is down; an nginx reload. For each fault it prints
// the requests sent, how many answered 2xx and 5xx, how long until every answer was 2xx again, and, once the
// run has settled, acknowledged writes that cannot be read, webhook deliveries lost (a repeat is allowed only
// with the same webhook-id) and pages missing from the change feed. Run by hand (a few minutes); the results go
// to bench/results/<time>-chaos.json.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { mintSession, SESSION_COOKIE } from "../shared/auth/session-verifier.ts";
import { watchFeed } from "./chaos/feed.ts";
import { startLoad, type Answer } from "./chaos/load.ts";
import { startReceiver } from "./chaos/receiver.ts";
import { freePort } from "./free-port.ts";
import { startSplitDeployment, type SplitDeployment } from "./split/split-deployment.ts";

const root = resolve(import.meta.dirname, "..");
const SECRET = `chaos-${randomUUID()}-${randomUUID()}`;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const say = (line: string) => process.stderr.write(`chaos: ${line}\n`);

interface Fault {
  readonly name: string;
  inject(split: SplitDeployment): Promise<void>;
}

const processOf = (split: SplitDeployment, name: string) => {
  const found = split.processes.get(name);
  if (!found) throw new Error(`no process ${name}`);
  return found;
};
const kill9 = (name: string): Fault => ({
  name: `kill -9 ${name}`,
  inject: async (split) => processOf(split, name).signal("SIGKILL"),
});

const FAULTS: readonly Fault[] = [
  kill9("projector"),
  kill9("command-api"),
  kill9("query-api-1"),
  kill9("notifier"),
  {
    name: "NATS stopped 20 s, then started",
    inject: async (split) => {
      const nats = processOf(split, "nats-server");
      await nats.halt();
      await sleep(20_000);
      nats.start();
    },
  },
  {
    name: "projector, command API, notifier restarted while NATS is down",
    inject: async (split) => {
      const nats = processOf(split, "nats-server");
      await nats.halt();
      for (const name of ["projector", "command-api", "notifier"]) {
        const service = processOf(split, name);
        await service.halt();
        service.start();
      }
      await sleep(10_000);
      nats.start();
    },
  },
  { name: "nginx reload (SIGHUP)", inject: async (split) => processOf(split, "nginx").signal("SIGHUP") },
];

/** Waits until every answer has been 2xx for `quietMs`, at most `capMs` after `start`. */
async function healed(answers: readonly Answer[], start: number, quietMs = 5_000, capMs = 120_000): Promise<void> {
  for (;;) {
    const now = Date.now();
    const lastBad = [...answers]
      .reverse()
      .find((answer) => answer.at >= start && (answer.status < 200 || answer.status >= 300));
    if (now - (lastBad?.at ?? start) >= quietMs) return;
    if (now - start > capMs) return;
    await sleep(250);
  }
}

async function until(what: string, done: () => Promise<boolean> | boolean, capMs: number): Promise<void> {
  const deadline = Date.now() + capMs;
  while (!(await done())) {
    if (Date.now() > deadline) {
      say(`gave up waiting for ${what}`);
      return;
    }
    await sleep(500);
  }
}

async function main(): Promise<void> {
  say("building");
  if (
    spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], {
      cwd: root,
      stdio: "inherit",
    }).status !== 0
  )
    throw new Error("the build failed");
  const dataDir = mkdtempSync(join(tmpdir(), "workspace-chaos-"));
  const receiver = await startReceiver();
  const split = await startSplitDeployment({
    root,
    dataDir,
    gatewayPort: await freePort(),
    queryNodes: 2,
    commandApiPort: null,
    queryApiPorts: [],
    natsPort: null,
    bodyLimitBytes: 1024 * 1024,
    restart: true,
    env: {
      AUTH_SESSION_SECRET: SECRET,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
      WEBHOOK_FIRST_RETRY_MS: "1000",
      CONSISTENCY_WAIT_MS: "5000",
      LOG_LEVEL: "warn",
    },
    report: say,
  });
  try {
    const api = `${split.gatewayUrl}/api/v1`;
    const cookie = `${SESSION_COOKIE}=${await mintSession(SECRET, { sub: randomUUID(), email: "chaos@example.com", name: "Chaos" })}`;
    const me = await fetch(`${api}/me`, { headers: { cookie } });
    if (!me.ok) throw new Error(`GET /me answered ${me.status}`);
    const hook = await fetch(`${api}/webhooks`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ url: receiver.url, events: ["page.created"] }),
    });
    if (hook.status !== 201 && hook.status !== 202)
      throw new Error(`POST /webhooks answered ${hook.status}: ${await hook.text()}`);
    const feed = watchFeed(`${api}/changes`, cookie);
    const load = startLoad(api, cookie, 3);
    say("steady load for 10 s");
    await sleep(10_000);

    const windows: Array<{ fault: string; start: number; end: number; healSeconds: number }> = [];
    for (const fault of FAULTS) {
      say(fault.name);
      const start = Date.now();
      await fault.inject(split);
      await healed(load.answers, start);
      const inWindow = load.answers.filter((answer) => answer.at >= start);
      const lastBad = [...inWindow].reverse().find((answer) => answer.status < 200 || answer.status >= 300);
      windows.push({
        fault: fault.name,
        start,
        end: Date.now(),
        healSeconds: lastBad ? (lastBad.at - start) / 1_000 : 0,
      });
    }
    await load.stop();

    say(
      `settling: reading back ${load.writes.length} acknowledged writes, waiting for their webhooks and feed entries`,
    );
    const unreadable = new Set(load.writes.map((write) => write.pageId));
    await until(
      "every acknowledged write to be readable",
      async () => {
        for (const pageId of [...unreadable]) {
          const answer = await fetch(`${api}/pages/${pageId}`, { headers: { cookie } }).catch(() => null);
          if (answer?.status === 200) unreadable.delete(pageId);
          await answer?.arrayBuffer();
        }
        return unreadable.size === 0;
      },
      120_000,
    );
    await until(
      "every webhook delivery",
      () => load.writes.every((write) => receiver.byPage.has(write.pageId)),
      180_000,
    );
    await until(
      "every page on the change feed",
      () => load.writes.every((write) => feed.createdPages.has(write.pageId)),
      60_000,
    );
    feed.stop();

    const rows = windows.map((window, index) => {
      const next = windows[index + 1];
      const end = next ? next.start : Number.POSITIVE_INFINITY;
      const answers = load.answers.filter((answer) => answer.at >= window.start && answer.at < end);
      const writes = load.writes.filter((write) => write.at >= window.start && write.at < end);
      return {
        fault: window.fault,
        requests: answers.length,
        ok2xx: answers.filter((answer) => answer.status >= 200 && answer.status < 300).length,
        err5xx: answers.filter((answer) => answer.status >= 500).length,
        noAnswer: answers.filter((answer) => answer.status === 0).length,
        other: answers.filter((answer) => answer.status >= 300 && answer.status < 500).length,
        healSeconds: Number(window.healSeconds.toFixed(1)),
        acknowledgedWrites: writes.length,
        unreadableWrites: writes.filter((write) => unreadable.has(write.pageId)).length,
        webhooksLost: writes.filter((write) => !receiver.byPage.has(write.pageId)).length,
        webhookRepeatsWithNewId: writes.filter((write) => (receiver.byPage.get(write.pageId)?.size ?? 0) > 1).length,
        feedGaps: writes.filter((write) => !feed.createdPages.has(write.pageId)).length,
      };
    });
    const result = {
      at: new Date().toISOString(),
      node: process.version,
      workers: 3,
      queryNodes: 2,
      totalRequests: load.answers.length,
      acknowledgedWrites: load.writes.length,
      feedReconnects: feed.reconnects(),
      webhookCalls: receiver.calls(),
      faults: rows,
    };
    const file = join(root, "bench", "results", `${result.at.replace(/[:.]/g, "-").slice(0, 19)}-chaos.json`);
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(
      [
        "| fault | requests | 2xx | 5xx | no answer | other | healed after (s) | acked writes | unreadable | webhooks lost | repeats, new id | feed gaps |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
      ]
        .concat(
          rows.map(
            (row) =>
              `| ${row.fault} | ${row.requests} | ${row.ok2xx} | ${row.err5xx} | ${row.noAnswer} | ${row.other} | ${row.healSeconds} | ${row.acknowledgedWrites} | ${row.unreadableWrites} | ${row.webhooksLost} | ${row.webhookRepeatsWithNewId} | ${row.feedGaps} |`,
          ),
        )
        .join("\n") + `\n\nsaved to ${file}\n`,
    );
    const lost = rows.reduce(
      (sum, row) => sum + row.unreadableWrites + row.webhooksLost + row.webhookRepeatsWithNewId + row.feedGaps,
      0,
    );
    process.exitCode = lost === 0 ? 0 : 1;
  } finally {
    await split.stop();
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  say(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
