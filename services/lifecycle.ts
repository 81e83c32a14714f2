// Process entry points: config errors stop start-up with a message naming the variable; SIGTERM and SIGINT
// close gracefully (stop accepting, finish in-flight requests, flush the projector, close stores).
import { ConfigError } from "../shared/config/config.ts";

export async function runUntilSignalled(name: string, start: () => Promise<{ close(): Promise<void> }>): Promise<void> {
  let running: { close(): Promise<void> };
  try {
    running = await start();
  } catch (error) {
    const message =
      error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error);
    process.stderr.write(`${name}: cannot start: ${message}\n`);
    process.exit(1);
  }
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stderr.write(`${name}: ${signal} received, shutting down\n`);
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`${name}: shutdown failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}
