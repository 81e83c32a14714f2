// Split-mode read figures: the command API and one, then two query nodes over the seeded DATA_DIR, behind the
// project's nginx gateway, driven through the gateway. Reads only: the read models are already caught up.
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gatewayConfig } from "../deploy/nginx/gateway-config.ts";
import type { LoadFigures } from "./http-load.ts";
import { freePort } from "../deploy/free-port.ts";
import { startChild, type Child } from "./processes.ts";

const NGINX = ["/usr/sbin/nginx", "nginx"].find((candidate) => spawnSync(candidate, ["-v"]).status === 0) ?? null;

export interface SplitFigures {
  readonly queryNodes: number;
  readonly resolve: LoadFigures;
  readonly content: LoadFigures;
}

async function startGateway(
  commandApi: string,
  queryApis: readonly string[],
): Promise<{ url: string; stop(): Promise<void> }> {
  if (!NGINX) throw new Error("nginx is not installed");
  const dir = await mkdtemp(join(tmpdir(), "bench-gateway-"));
  const port = await freePort();
  const host = (url: string) => new URL(url).host;
  const file = join(dir, "nginx.conf");
  await writeFile(
    file,
    await gatewayConfig({ port, commandApi: host(commandApi), queryApis: queryApis.map(host), runDir: dir }),
  );
  const child = spawn(NGINX, ["-c", file, "-p", dir, "-e", "stderr"], { stdio: ["ignore", "ignore", "inherit"] });
  const url = `http://127.0.0.1:${port}`;
  while (
    !(await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null) throw new Error("nginx exited");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    async stop() {
      child.kill("SIGQUIT");
      await once(child, "exit");
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** null when nginx is missing (the figures are then reported as not measured). */
export async function benchSplitReads(options: {
  env: Record<string, string>;
  run: (label: string, url: string, headers: Record<string, string>) => Promise<LoadFigures>;
  resolvePath: string;
  resolveHeaders: Record<string, string>;
  contentPath: string;
  contentHeaders: Record<string, string>;
}): Promise<SplitFigures[] | null> {
  if (!NGINX) return null;
  const commandApi = await startChild("services/command-api/main.ts", options.env, "/healthz");
  const figures: SplitFigures[] = [];
  try {
    for (const queryNodes of [1, 2]) {
      const nodes: Child[] = [];
      for (let n = 0; n < queryNodes; n += 1)
        nodes.push(
          await startChild(
            "services/query-api/main.ts",
            { ...options.env, COMMAND_API_URL: commandApi.url },
            "/healthz",
          ),
        );
      const gateway = await startGateway(
        commandApi.url,
        nodes.map((node) => node.url),
      );
      try {
        // Each node's first sight of each caller asks the command API once; not part of the figure.
        for (let warm = 0; warm < 4 * queryNodes; warm += 1) {
          await fetch(`${gateway.url}${options.resolvePath}`, { headers: options.resolveHeaders });
          await fetch(`${gateway.url}${options.contentPath}`, { headers: options.contentHeaders });
        }
        const resolve = await options.run(
          `split, ${queryNodes} query node(s): GET /pages/resolve`,
          `${gateway.url}${options.resolvePath}`,
          options.resolveHeaders,
        );
        const content = await options.run(
          `split, ${queryNodes} query node(s): GET /pages/{id}/content`,
          `${gateway.url}${options.contentPath}`,
          options.contentHeaders,
        );
        figures.push({ queryNodes, resolve, content });
      } finally {
        await gateway.stop();
        for (const node of nodes) await node.stop();
      }
    }
  } finally {
    await commandApi.stop();
  }
  return figures;
}
