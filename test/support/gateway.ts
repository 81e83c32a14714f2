// Starts the project's nginx gateway (deploy/nginx/gateway.conf.template) on a free port in front of running
// services, as the split deployment does. Without an nginx binary the suites that need it skip, saying why;
// with CI=true a missing nginx is a failure.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gatewayConfig } from "../../deploy/nginx/gateway-config.ts";
import { tempDir } from "./temp-dir.ts";
import { freePort } from "../../deploy/free-port.ts";

const NGINX = ["/usr/sbin/nginx", "nginx"].find((candidate) => spawnSync(candidate, ["-v"]).status === 0) ?? null;

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

/** With `resolver`, the URLs name services that DNS server resolves while nginx runs (as in the containers). */
export async function startGateway(options: { commandApi: string; queryApis: readonly string[]; resolver?: string }): Promise<Gateway> {
  if (!NGINX) throw new Error("nginx is not installed");
  const dir = await tempDir();
  const port = await freePort();
  const hostOf = (url: string) => new URL(url).host;
  const config = await gatewayConfig({ port, commandApi: hostOf(options.commandApi), queryApis: options.queryApis.map(hostOf), runDir: dir.path, ...(options.resolver ? { resolver: options.resolver } : {}) });
  const file = join(dir.path, "nginx.conf");
  await writeFile(file, config);
  const child = spawn(NGINX, ["-c", file, "-p", dir.path, "-e", "stderr"], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    if (await fetch(`${url}/internal/`).then(() => true, () => false)) break;
    if (Date.now() > deadline) throw new Error(`nginx did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    child,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGQUIT");
        await once(child, "exit");
      }
      await dir.remove();
    },
  };
}
