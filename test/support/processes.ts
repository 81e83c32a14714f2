// Runs a service entry point as its own process and learns its URL from its start-up log line.
import { inheritedEnv } from "./server.ts";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";

export interface ServiceProcess {
  /** The HTTP service's URL; "" for a service without one. */
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

export function startServiceProcess(entry: string, env: Record<string, string>): Promise<ServiceProcess> {
  return startProcess(process.execPath, ["--import", "tsx", entry], env);
}

/** Any command that starts a service (e.g. `npm start`), learning its URL the same way. */
export async function startProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<ServiceProcess> {
  const entry = [command, ...args].join(" ");
  const child = spawn(command, args, {
    env: { ...inheritedEnv(), PORT: "0", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = "";
    const timer = setTimeout(() => reject(new Error(`${entry} did not start: ${stderr}`)), 90_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      // HTTP services log server.started with their URL; the projector and the notifier log <name>.started.
      const match = /"event":"(server|projector|notifier)\.started"(?:,"url":"([^"]+)")?/.exec(buffered);
      if (match) {
        clearTimeout(timer);
        resolve(match[2] ?? "");
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${String(code)}: ${stderr}`));
    });
  });
  return {
    url,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/** Runs an entry to completion and returns its exit code and output. */
export async function runToExit(
  entry: string,
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", entry, ...args], {
    env: { ...inheritedEnv(), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, stdout, stderr };
}
