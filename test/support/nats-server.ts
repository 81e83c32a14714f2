// A real nats-server with JetStream for the tests: on a free port of 127.0.0.1, with a temporary store that
// goes with it. Without the binary the suites that need it skip, saying why; with CI=true a missing
// nats-server is a failure.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { connect as connectSocket } from "node:net";
import { join } from "node:path";
import { freePort } from "../../deploy/free-port.ts";
import { tempDir } from "./temp-dir.ts";

const NATS_SERVER =
  ["/usr/sbin/nats-server", "nats-server"].find((candidate) => spawnSync(candidate, ["--version"]).status === 0) ??
  null;

/** Why nats-server cannot run here, or null when it can. Throws under CI=true, where it must be installed. */
export function natsUnavailable(): string | null {
  if (NATS_SERVER) return null;
  const reason = "nats-server is not installed (apt-get install -y nats-server)";
  if (process.env.CI === "true") throw new Error(`${reason}: CI must run the NATS tests`);
  return reason;
}

export interface NatsServer {
  readonly url: string;
  /** Stops the server (SIGTERM) and starts it again on the same port and store. */
  restart(): Promise<void>;
  /** Stops the server, keeping its port and store for resume(): an outage. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Freezes the server (SIGSTOP): its sockets stay open and nothing answers, a silent outage. */
  freeze(): void;
  /** Lets a frozen server go on (SIGCONT). */
  thaw(): void;
  stop(): Promise<void>;
}

async function accepting(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nats-server exited with ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connectSocket(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error("nats-server did not start");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startNatsServer(): Promise<NatsServer> {
  if (!NATS_SERVER) throw new Error("nats-server is not installed");
  const binary = NATS_SERVER;
  const dir = await tempDir();
  const port = await freePort();
  const launch = async () => {
    const child = spawn(binary, ["-js", "-a", "127.0.0.1", "-p", String(port), "-sd", join(dir.path, "store")], {
      stdio: "ignore",
    });
    await accepting(port, child);
    return child;
  };
  const halt = async (child: ChildProcess) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    // A frozen server takes SIGTERM only once it goes on.
    child.kill("SIGCONT");
    child.kill("SIGTERM");
    await once(child, "exit");
  };
  let child = await launch();
  return {
    url: `nats://127.0.0.1:${port}`,
    async restart() {
      await halt(child);
      child = await launch();
    },
    async pause() {
      await halt(child);
    },
    async resume() {
      child = await launch();
    },
    freeze() {
      child.kill("SIGSTOP");
    },
    thaw() {
      child.kill("SIGCONT");
    },
    async stop() {
      await halt(child);
      await dir.remove();
    },
  };
}
