// The split deployment as separate processes over one DATA_DIR: a projector, the command API, query nodes that
// reach it and, if asked, notifiers, each started from its entry point (the TypeScript sources, or a compiled
// build), alone or behind the project's nginx gateway. `stop()` ends them all.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { startGateway, type Gateway } from "./gateway.ts";
import { startProcess, type ServiceProcess } from "./processes.ts";
import { productionStack, TEST_SESSION_SECRET } from "./server.ts";
import { tempDir } from "./temp-dir.ts";

export type Service = "command-api" | "query-api" | "projector" | "notifier";

export interface SplitServices {
  readonly dataDir: string;
  readonly env: Record<string, string>;
  readonly commandApi: ServiceProcess;
  readonly queryApis: ServiceProcess[];
  readonly notifiers: ServiceProcess[];
  readonly projector: ServiceProcess;
  /** Starts one more process of a service over the same DATA_DIR and settings. */
  start(service: Service): Promise<ServiceProcess>;
  stop(): Promise<void>;
}

/** Compiles the services into `.build/<name>` (inside the project, so packages resolve) and returns that root. */
export function buildServices(name: string): string {
  const outDir = join(".build", name);
  const result = spawnSync(
    process.execPath,
    ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json", "--outDir", outDir],
    { encoding: "utf8" },
  );
  if (result.status !== 0) throw new Error(`build failed: ${result.stdout}${result.stderr}`);
  return outDir;
}

export interface SplitOptions {
  readonly queryNodes?: number;
  readonly notifiers?: number;
  /** A build's root (buildServices); the TypeScript sources when absent. */
  readonly compiled?: string;
  readonly env?: Record<string, string>;
}

export async function startSplitServices(options: SplitOptions = {}): Promise<SplitServices> {
  const dir = await tempDir();
  // On the hosting service's production-stack job, the split services use EventStoreDB and MongoDB too.
  const env = {
    DATA_DIR: dir.path,
    AUTH_SESSION_SECRET: TEST_SESSION_SECRET,
    ...productionStack(dir.path),
    ...options.env,
  };
  const started: ServiceProcess[] = [];
  const launch = async (service: Service, extra: Record<string, string> = {}) => {
    const child = options.compiled
      ? await startProcess(process.execPath, [join(options.compiled, "services", service, "main.js")], {
          ...env,
          ...extra,
        })
      : await startProcess(process.execPath, ["--import", "tsx", `services/${service}/main.ts`], { ...env, ...extra });
    started.push(child);
    return child;
  };
  const stop = async () => {
    for (const service of started.reverse()) await service.stop();
    await dir.remove();
  };
  try {
    const projector = await launch("projector");
    const commandApi = await launch("command-api");
    const start = (service: Service) =>
      launch(service, service === "query-api" ? { COMMAND_API_URL: commandApi.url } : {});
    const queryApis: ServiceProcess[] = [];
    for (let node = 0; node < (options.queryNodes ?? 1); node += 1) queryApis.push(await start("query-api"));
    const notifiers: ServiceProcess[] = [];
    for (let node = 0; node < (options.notifiers ?? 0); node += 1) notifiers.push(await start("notifier"));
    return { dataDir: dir.path, env, commandApi, queryApis, notifiers, projector, start, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export interface GatewayedSplit {
  readonly split: SplitServices;
  /** nginx in front of the command API and every query node. */
  readonly gateway: Gateway;
  /** Ends the gateway, then the services. */
  stop(): Promise<void>;
}

/** The split services with the gateway in front, as a client of the deployment meets them. */
export async function startSplitBehindGateway(options: SplitOptions = {}): Promise<GatewayedSplit> {
  const split = await startSplitServices(options);
  try {
    const gateway = await startGateway({
      commandApi: split.commandApi.url,
      queryApis: split.queryApis.map((node) => node.url),
    });
    return {
      split,
      gateway,
      async stop() {
        await gateway.stop();
        await split.stop();
      },
    };
  } catch (error) {
    await split.stop();
    throw error;
  }
}
