// `npm run split`: the split deployment on one machine, from the compiled build. A projector, the command API,
// query nodes (two unless --query-nodes says) and a notifier run as separate processes over DATA_DIR (default
// ./data/split), behind the project's nginx gateway on PORT (default 3000); with nats-server installed, they
// talk over a NATS JetStream server of their own. The internal ports are free ones unless pinned:
//
//   npm run split -- --query-nodes 3 --command-api-port 3101 --query-api-ports 3111,3112,3113 --nats-port 4222
//
// Ctrl-C, or SIGTERM to npm's process (the script is exec'd, so npm's signal reaches this one), stops every
// process it started gracefully.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gatewayConfig } from "./nginx/gateway-config.ts";
import { freePort } from "./free-port.ts";
import { splitArguments } from "./split-arguments.ts";
import { loadConfig } from "../shared/config/config.ts";

const root = resolve(import.meta.dirname, "..");
const dataDir = resolve(process.env.DATA_DIR ?? join(root, "data", "split"));
const gatewayPort = Number(process.env.PORT ?? 3000);
const options = splitArguments(process.argv.slice(2));
const children: Array<{ name: string; child: ChildProcess }> = [];
const scratch = mkdtempSync(join(tmpdir(), "workspace-split-"));

const binary = (name: string): string | null => [`/usr/sbin/${name}`, name].find((candidate) => spawnSync(candidate, ["--version"]).error === undefined) ?? null;

function run(name: string, command: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, DATA_DIR: dataDir, ...env }, stdio: ["ignore", "ignore", "inherit"] });
  children.push({ name, child });
  child.once("exit", (code, signal) => {
    if (!stopping) process.stderr.write(`split: ${name} exited (${signal ?? code ?? "?"})\n`);
  });
  return child;
}

async function answers(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await fetch(url).then(() => true, () => false))) {
    if (Date.now() > deadline) throw new Error(`${url} did not answer`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  for (const { child } of children.reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill("SIGTERM");
    // A process that does not stop within 15 s is killed: stopping never hangs.
    const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await once(child, "exit");
    clearTimeout(killer);
  }
  rmSync(scratch, { recursive: true, force: true });
}

async function main(): Promise<void> {
  const nginx = binary("nginx");
  if (!nginx) throw new Error("nginx is not installed (apt-get install -y nginx-light)");
  process.stderr.write("split: building\n");
  if (spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" }).status !== 0) throw new Error("the build failed");
  mkdirSync(dataDir, { recursive: true });

  // nginx, on this machine, names each client in X-Forwarded-For: per-address rate limits count real clients.
  const shared: Record<string, string> = { TRUST_PROXY: "loopback" };
  const nats = binary("nats-server");
  if (nats) {
    const port = options.natsPort ?? (await freePort());
    run("nats-server", nats, ["-js", "-a", "127.0.0.1", "-p", String(port), "-sd", join(scratch, "nats")]);
    shared.NATS_URL = `nats://127.0.0.1:${port}`;
  }
  const service = (name: string, env: Record<string, string> = {}) => run(name, process.execPath, ["--max-old-space-size=1024", `dist/services/${name.replace(/-\d$/, "")}/main.js`], { ...shared, ...env });
  const commandPort = options.commandApiPort ?? (await freePort());
  service("projector");
  service("command-api", { PORT: String(commandPort) });
  await answers(`http://127.0.0.1:${commandPort}/healthz`);
  const queryPorts: number[] = [];
  for (let node = 0; node < options.queryNodes; node += 1) queryPorts.push(options.queryApiPorts[node] ?? (await freePort()));
  queryPorts.forEach((port, index) => service(`query-api-${index + 1}`, { PORT: String(port), COMMAND_API_URL: `http://127.0.0.1:${commandPort}` }));
  for (const port of queryPorts) await answers(`http://127.0.0.1:${port}/healthz`);
  service("notifier", { PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${gatewayPort}` });

  const config = join(scratch, "nginx.conf");
  const { BODY_LIMIT_BYTES: bodyLimitBytes } = loadConfig();
  writeFileSync(
    config,
    await gatewayConfig({ port: gatewayPort, commandApi: `127.0.0.1:${commandPort}`, queryApis: queryPorts.map((port) => `127.0.0.1:${port}`), runDir: scratch, bodyLimitBytes }),
  );
  run("nginx", nginx, ["-c", config, "-p", scratch, "-e", "stderr"]);
  await answers(`http://127.0.0.1:${gatewayPort}/healthz`);
  process.stderr.write(
    `split: gateway on http://127.0.0.1:${gatewayPort} (command API :${commandPort}, query nodes :${queryPorts.join(", :")}${nats ? `, ${shared.NATS_URL}` : ""}), data in ${dataDir}\n` +
      `split: sign in with  DATA_DIR=${dataDir} npm run -s session -- --email you@example.com --name You\n`,
  );
}

process.on("SIGINT", () => void stop().then(() => process.exit(0)));
process.on("SIGTERM", () => void stop().then(() => process.exit(0)));
main().catch(async (error: unknown) => {
  process.stderr.write(`split: ${error instanceof Error ? error.message : String(error)}\n`);
  await stop();
  process.exit(1);
});
