// The shells and tools the images run their scripts with, from Debian's packages: busybox sh (the /bin/sh of
// the alpine images: nginx:alpine for the gateway, nats:alpine) and dash (a second POSIX shell that ends a
// `${VAR:-...}` expansion the same way). A script is run with a PATH of busybox applets only, plus what the image
// adds (envsubst and nginx in nginx:alpine), so it cannot lean on a tool the image lacks. Without busybox, dash
// or envsubst the suites that need them skip, saying why; with CI=true a missing one is a failure.
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";

export interface ImageShell {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
}

export const IMAGE_SHELLS: readonly ImageShell[] = [
  { name: "busybox sh", command: "busybox", args: ["sh"] },
  { name: "dash", command: "dash", args: [] },
];

/** The applets the scripts and health checks of the alpine images use from busybox. */
const APPLETS = ["sh", "awk", "mkdir", "cat", "wget", "sed", "grep", "echo", "test", "["];

const which = (name: string): string | null => {
  const found = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  return found.status === 0 ? found.stdout.trim() : null;
};

/** Why the image shells cannot run here, or null when they can. Throws under CI=true, where .ci/run installs them. */
export function imageShellsUnavailable(): string | null {
  const missing = [
    { tool: "busybox", debian: "busybox" },
    { tool: "dash", debian: "dash" },
    { tool: "envsubst", debian: "gettext-base" },
  ].filter(({ tool }) => which(tool) === null);
  if (missing.length === 0) return null;
  const reason = `${missing.map(({ tool }) => tool).join(", ")} not installed (apt-get install -y ${missing.map(({ debian }) => debian).join(" ")})`;
  if (process.env.CI === "true") throw new Error(`${reason}: CI must run the image scripts`);
  return reason;
}

/** A directory to be the whole PATH: busybox's applets, and each of `extra` (e.g. envsubst, nginx) from this machine. */
export async function imageBin(dir: string, extra: Readonly<Record<string, string>> = {}): Promise<string> {
  const bin = join(dir, "bin");
  await mkdir(bin, { recursive: true });
  const busybox = which("busybox");
  if (!busybox) throw new Error("busybox is not installed");
  for (const applet of APPLETS) await symlink(busybox, join(bin, applet));
  for (const [name, target] of Object.entries(extra)) await symlink(target, join(bin, name));
  return bin;
}

/** The path of a tool on this machine (for imageBin's `extra`). */
export function toolPath(name: string): string {
  const found = which(name);
  if (!found) throw new Error(`${name} is not installed`);
  return found;
}

/**
 * Runs a command to its end without blocking this process (a DNS server or service the command reaches may run
 * in it): its exit code (null when killed at the timeout) and its output.
 */
export async function runToEnd(
  command: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  timeoutMs = 20_000,
): Promise<{ status: number | null; output: string }> {
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"], timeout: timeoutMs });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const [status] = (await once(child, "close")) as [number | null];
  return { status, output };
}
