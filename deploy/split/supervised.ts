// One process of the local split deployment under supervision, as compose's `restart: unless-stopped` keeps a
// container: when it exits without being asked to, it is started again after a second. `stop()` ends it for
// good (SIGTERM, then SIGKILL after 15 s, so stopping never hangs); `halt()` ends it until `start()`.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";

export interface ProcessSpec {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
  readonly cwd: string;
}

const RESTART_DELAY_MS = 1_000;
const KILL_AFTER_MS = 15_000;

export class Supervised {
  private current: ChildProcess | null = null;
  private held = true;
  private restartTimer: NodeJS.Timeout | null = null;
  /** How many times it was started again after exiting on its own. */
  restarts = 0;

  constructor(
    readonly spec: ProcessSpec,
    private readonly options: { readonly restart: boolean; readonly report: (line: string) => void },
  ) {}

  get pid(): number | null {
    return this.current?.pid ?? null;
  }

  get child(): ChildProcess | null {
    return this.current;
  }

  start(): ChildProcess {
    this.held = false;
    const child = spawn(this.spec.command, [...this.spec.args], {
      cwd: this.spec.cwd,
      env: { ...process.env, ...this.spec.env },
      stdio: ["ignore", "ignore", "inherit"],
    });
    this.current = child;
    child.once("exit", (code, signal) => {
      if (this.held) return;
      this.options.report(
        `split: ${this.spec.name} exited (${signal ?? code ?? "?"})${this.options.restart ? "; starting it again" : ""}`,
      );
      if (!this.options.restart) return;
      this.restartTimer = setTimeout(() => {
        this.restartTimer = null;
        if (this.held) return;
        this.restarts += 1;
        this.start();
      }, RESTART_DELAY_MS);
    });
    return child;
  }

  /** Sends a signal, as an operator or the kernel would (SIGKILL: a crash the supervisor restarts). */
  signal(signal: NodeJS.Signals): void {
    this.current?.kill(signal);
  }

  /** Ends the process and keeps it down until start(). */
  async halt(): Promise<void> {
    this.held = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const child = this.current;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const killer = setTimeout(() => child.kill("SIGKILL"), KILL_AFTER_MS);
    await once(child, "exit");
    clearTimeout(killer);
  }

  stop(): Promise<void> {
    return this.halt();
  }
}
