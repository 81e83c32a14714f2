// `npm run split`: the split deployment on one machine, from the compiled build. A projector, the command API,
// query nodes (two unless --query-nodes says) and a notifier run as separate processes over DATA_DIR (default
// ./data/split), behind the project's nginx gateway on PORT (default 3000); with nats-server installed, they
// talk over a NATS JetStream server of their own. The internal ports are free ones unless pinned:
//
//   npm run split -- --query-nodes 3 --command-api-port 3101 --query-api-ports 3111,3112,3113 --nats-port 4222
//
// A service that exits on its own is started again after a second (as compose's restart policy does). Ctrl-C,
// or SIGTERM to npm's process (the script is exec'd, so npm's signal reaches this one), stops every process it
// started gracefully.
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { splitArguments } from "./split-arguments.ts";
import { startSplitDeployment, type SplitDeployment } from "./split/split-deployment.ts";
import { loadConfig } from "../shared/config/config.ts";

const root = resolve(import.meta.dirname, "..");
const dataDir = resolve(process.env.DATA_DIR ?? join(root, "data", "split"));
const gatewayPort = Number(process.env.PORT ?? 3000);

let running: SplitDeployment | null = null;
let stopping = false;
async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await running?.stop();
  }
  process.exit(code);
}

async function main(): Promise<void> {
  const options = splitArguments(process.argv.slice(2));
  process.stderr.write("split: building\n");
  if (
    spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], {
      cwd: root,
      stdio: "inherit",
    }).status !== 0
  )
    throw new Error("the build failed");
  const { BODY_LIMIT_BYTES: bodyLimitBytes } = loadConfig();
  running = await startSplitDeployment({ root, dataDir, gatewayPort, bodyLimitBytes, restart: true, ...options });
  if (stopping) return;
  process.stderr.write(
    `split: gateway on ${running.gatewayUrl} (command API :${running.commandApiPort}, query nodes :${running.queryApiPorts.join(", :")}${running.natsUrl ? `, ${running.natsUrl}` : ""}), data in ${dataDir}\n` +
      `split: sign in with  DATA_DIR=${dataDir} npm run -s session -- --email you@example.com --name You\n`,
  );
}

process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
main().catch(async (error: unknown) => {
  process.stderr.write(`split: ${error instanceof Error ? error.message : String(error)}\n`);
  await stop(1);
});
