// The split deployment as separate processes over one DATA_DIR: a projector, the command API and query nodes
// that reach it, each started from its entry point. `stop()` ends them all.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { startServiceProcess, type ServiceProcess } from "./processes.ts";
import { TEST_SESSION_SECRET } from "./server.ts";
import { tempDir } from "./temp-dir.ts";

export interface SplitServices {
  readonly dataDir: string;
  readonly env: Record<string, string>;
  readonly commandApi: ServiceProcess;
  readonly queryApis: ServiceProcess[];
  stop(): Promise<void>;
}

export async function startSplitServices(options: { queryNodes?: number } = {}): Promise<SplitServices> {
  const dir = await tempDir();
  const env = { DATA_DIR: dir.path, AUTH_SESSION_SECRET: TEST_SESSION_SECRET };
  const projector = spawn(process.execPath, ["--import", "tsx", "services/projector/main.ts"], { env: { ...process.env, LOG_LEVEL: "silent", ...env }, stdio: "ignore" });
  const started: ServiceProcess[] = [];
  const stop = async () => {
    for (const service of started.reverse()) await service.stop();
    if (projector.exitCode === null) {
      projector.kill("SIGTERM");
      await once(projector, "exit");
    }
    await dir.remove();
  };
  try {
    const commandApi = await startServiceProcess("services/command-api/main.ts", env);
    started.push(commandApi);
    const queryApis: ServiceProcess[] = [];
    for (let node = 0; node < (options.queryNodes ?? 1); node += 1) {
      const queryApi = await startServiceProcess("services/query-api/main.ts", { ...env, COMMAND_API_URL: commandApi.url });
      started.push(queryApi);
      queryApis.push(queryApi);
    }
    return { dataDir: dir.path, env, commandApi, queryApis, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
