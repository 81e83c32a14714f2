// The split deployment on one machine, from the compiled build (dist/): a nats-server of its own (when
// installed), a projector, the command API, query nodes and a notifier as separate processes over one DATA_DIR,
// behind the project's nginx gateway. Each process is supervised (supervised.ts) and reachable by name, so that
// `npm run split` and `npm run chaos` share one way of running it.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../free-port.ts";
import { gatewayConfig } from "../nginx/gateway-config.ts";
import { Supervised } from "./supervised.ts";

export interface SplitDeploymentOptions {
  readonly root: string;
  readonly dataDir: string;
  readonly gatewayPort: number;
  readonly queryNodes: number;
  readonly commandApiPort: number | null;
  readonly queryApiPorts: readonly number[];
  readonly natsPort: number | null;
  readonly bodyLimitBytes: number;
  /** Settings every service gets, on top of this process's environment. */
  readonly env?: Record<string, string>;
  /** Start a service again when it exits on its own (as compose does). */
  readonly restart?: boolean;
  readonly report?: (line: string) => void;
}

export interface SplitDeployment {
  readonly gatewayUrl: string;
  readonly commandApiPort: number;
  readonly queryApiPorts: readonly number[];
  readonly natsUrl: string | null;
  /** Every process by name: nats-server, projector, command-api, query-api-1…, notifier, nginx. */
  readonly processes: ReadonlyMap<string, Supervised>;
  stop(): Promise<void>;
}

const binary = (name: string): string | null =>
  [`/usr/sbin/${name}`, name].find((candidate) => spawnSync(candidate, ["--version"]).error === undefined) ?? null;

/** Waits until `url` answers at all (any status). */
async function answers(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (
    !(await fetch(url).then(
      () => true,
      () => false,
    ))
  ) {
    if (Date.now() > deadline) throw new Error(`${url} did not answer`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

export async function startSplitDeployment(options: SplitDeploymentOptions): Promise<SplitDeployment> {
  const nginx = binary("nginx");
  if (!nginx) throw new Error("nginx is not installed (apt-get install -y nginx-light)");
  const report = options.report ?? ((line: string) => process.stderr.write(`${line}\n`));
  mkdirSync(options.dataDir, { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), "workspace-split-"));
  const processes = new Map<string, Supervised>();
  const started: Supervised[] = [];
  const supervise = (name: string, command: string, args: string[], env: Record<string, string> = {}) => {
    const supervised = new Supervised(
      { name, command, args, env: { DATA_DIR: options.dataDir, ...env }, cwd: options.root },
      { restart: options.restart ?? false, report },
    );
    processes.set(name, supervised);
    started.push(supervised);
    supervised.start();
    return supervised;
  };
  const stop = async () => {
    for (const supervised of [...started].reverse()) await supervised.stop();
    rmSync(scratch, { recursive: true, force: true });
  };
  try {
    // nginx, on this machine, names each client in X-Forwarded-For: per-address rate limits count real clients.
    const shared: Record<string, string> = { TRUST_PROXY: "loopback", ...options.env };
    const nats = binary("nats-server");
    let natsUrl: string | null = null;
    if (nats) {
      const port = options.natsPort ?? (await freePort());
      supervise("nats-server", nats, ["-js", "-a", "127.0.0.1", "-p", String(port), "-sd", join(scratch, "nats")]);
      natsUrl = `nats://127.0.0.1:${port}`;
      shared.NATS_URL = natsUrl;
    }
    const service = (name: string, env: Record<string, string> = {}) =>
      supervise(
        name,
        process.execPath,
        ["--max-old-space-size=1024", `dist/services/${name.replace(/-\d+$/, "")}/main.js`],
        { ...shared, ...env },
      );
    const commandApiPort = options.commandApiPort ?? (await freePort());
    service("projector");
    service("command-api", { PORT: String(commandApiPort) });
    await answers(`http://127.0.0.1:${commandApiPort}/healthz`);
    const queryApiPorts: number[] = [];
    for (let node = 0; node < options.queryNodes; node += 1)
      queryApiPorts.push(options.queryApiPorts[node] ?? (await freePort()));
    queryApiPorts.forEach((port, index) =>
      service(`query-api-${index + 1}`, { PORT: String(port), COMMAND_API_URL: `http://127.0.0.1:${commandApiPort}` }),
    );
    for (const port of queryApiPorts) await answers(`http://127.0.0.1:${port}/healthz`);
    service("notifier", {
      PUBLIC_BASE_URL:
        shared.PUBLIC_BASE_URL ?? process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${options.gatewayPort}`,
    });

    const config = join(scratch, "nginx.conf");
    writeFileSync(
      config,
      await gatewayConfig({
        port: options.gatewayPort,
        commandApi: `127.0.0.1:${commandApiPort}`,
        queryApis: queryApiPorts.map((port) => `127.0.0.1:${port}`),
        runDir: scratch,
        bodyLimitBytes: options.bodyLimitBytes,
      }),
    );
    supervise("nginx", nginx, ["-c", config, "-p", scratch, "-e", "stderr"]);
    const gatewayUrl = `http://127.0.0.1:${options.gatewayPort}`;
    await answers(`${gatewayUrl}/healthz`);
    return { gatewayUrl, commandApiPort, queryApiPorts, natsUrl, processes, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
