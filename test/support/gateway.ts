// Starts the project's nginx gateway (deploy/nginx/gateway.conf.template) on a free port in front of running
// services: as the local split deployment renders it (startGateway: upstreams of fixed addresses), or as the
// gateway container does (startContainerGateway: deploy/docker/gateway.sh itself, under an image shell, with names
// resolved while nginx runs). Without an nginx binary the suites that need it skip, saying why; with CI=true a
// missing nginx is a failure.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { chmod, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { gatewayConfig } from "../../deploy/nginx/gateway-config.ts";
import { freePort } from "../../deploy/free-port.ts";
import { imageBin, runToEnd, toolPath, type ImageShell } from "./image-shells.ts";
import { tempDir } from "./temp-dir.ts";

const NGINX = ["/usr/sbin/nginx", "nginx"].find((candidate) => spawnSync(candidate, ["-v"]).status === 0) ?? null;

/** The gateway container's entry point and the template it renders, as the compose file mounts them. */
const GATEWAY_SCRIPT = resolve("deploy/docker/gateway.sh");
const GATEWAY_TEMPLATE = resolve("deploy/nginx/gateway.conf.template");

/** Why the gateway cannot run here, or null when it can. Throws under CI=true, where nginx must be installed. */
export function gatewayUnavailable(): string | null {
  if (NGINX) return null;
  const reason = "nginx is not installed (apt-get install -y nginx-light)";
  if (process.env.CI === "true") throw new Error(`${reason}: CI must run the gateway tests`);
  return reason;
}

export interface Gateway {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

async function running(
  child: ChildProcess,
  url: string,
  output: () => string,
  stop: () => Promise<void>,
): Promise<Gateway> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`nginx exited: ${output()}`);
    }
    if (
      await fetch(`${url}/internal/`).then(
        () => true,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`nginx did not start: ${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url, child, stop };
}

function stopper(child: ChildProcess, dir: { remove(): Promise<void> }): () => Promise<void> {
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGQUIT");
      await once(child, "exit");
    }
    await dir.remove();
  };
}

/** The local split's gateway: upstreams of the services' fixed addresses, rendered by deploy/nginx/gateway-config.ts. */
export async function startGateway(options: { commandApi: string; queryApis: readonly string[] }): Promise<Gateway> {
  if (!NGINX) throw new Error("nginx is not installed");
  const dir = await tempDir();
  const port = await freePort();
  const hostOf = (url: string) => new URL(url).host;
  const config = await gatewayConfig({
    port,
    commandApi: hostOf(options.commandApi),
    queryApis: options.queryApis.map(hostOf),
    runDir: dir.path,
  });
  const file = join(dir.path, "nginx.conf");
  await writeFile(file, config);
  const child = spawn(NGINX, ["-c", file, "-p", dir.path, "-e", "stderr"], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return running(child, `http://127.0.0.1:${port}`, () => stderr, stopper(child, dir));
}

export interface ContainerGatewayRun {
  /** The script's environment as the compose file gives it, plus the test's port, resolver and directories. */
  readonly env: Record<string, string>;
  /** PATH as the image has it: busybox's applets, envsubst and nginx. */
  readonly bin: string;
  readonly dir: { readonly path: string; remove(): Promise<void> };
}

/**
 * Prepares a run of deploy/docker/gateway.sh as the container runs it: under `shell`, with a PATH of the image's
 * tools only, the compose file's variables in `env`, on a free port of 127.0.0.1. `env` overrides the defaults.
 */
export async function containerGatewayRun(env: Record<string, string>): Promise<ContainerGatewayRun> {
  if (!NGINX) throw new Error("nginx is not installed");
  const dir = await tempDir();
  // nginx started as root runs its workers as another user, who must reach NGINX_RUN_DIR inside this directory.
  await chmod(dir.path, 0o711);
  const bin = await imageBin(dir.path, {
    envsubst: toolPath("envsubst"),
    nginx: NGINX.startsWith("/") ? NGINX : toolPath(NGINX),
  });
  const port = await freePort();
  return {
    bin,
    dir,
    env: {
      PATH: bin,
      GATEWAY_ADDRESS: "127.0.0.1",
      GATEWAY_PORT: String(port),
      GATEWAY_TEMPLATE,
      NGINX_RUN_DIR: join(dir.path, "run"),
      ...env,
    },
  };
}

/** Runs the script to its end with extra nginx arguments (e.g. `-t`): its exit code and output. */
export function runGatewayScript(
  shell: ImageShell,
  run: ContainerGatewayRun,
  nginxArgs: readonly string[],
): Promise<{ status: number | null; output: string }> {
  return runToEnd(toolPath(shell.command), [...shell.args, GATEWAY_SCRIPT, ...nginxArgs], run.env);
}

/**
 * The gateway container on this machine: deploy/docker/gateway.sh under `shell`, in front of services named
 * `commandApi` and `queryApi` (name:port) that the DNS server at `resolver` answers for, as compose's does.
 */
export async function startContainerGateway(options: {
  shell: ImageShell;
  commandApi: string;
  queryApi: string;
  resolver: string;
}): Promise<Gateway> {
  const run = await containerGatewayRun({
    COMMAND_API: options.commandApi,
    QUERY_API: options.queryApi,
    DNS_RESOLVER: options.resolver,
  });
  const child = spawn(toolPath(options.shell.command), [...options.shell.args, GATEWAY_SCRIPT, "-e", "stderr"], {
    env: run.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return running(child, `http://127.0.0.1:${run.env["GATEWAY_PORT"] ?? ""}`, () => output, stopper(child, run.dir));
}
