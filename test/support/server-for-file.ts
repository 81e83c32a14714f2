// One all-in-one server shared by a test file's tests: started before the first, stopped after the last.
import { afterAll, beforeAll } from "vitest";
import { TestServer } from "./server.ts";

export interface FileServer {
  /** The running server: for hooks and tests, once the file's first beforeAll has run. */
  readonly server: TestServer;
}

/** Registers the file's start and stop hooks; call it at the top of the file, before the file's own hooks. */
export function serverForFile(options: Parameters<typeof TestServer.start>[0] = {}): FileServer {
  let started: TestServer | null = null;
  beforeAll(async () => {
    started = await TestServer.start(options);
  });
  afterAll(async () => {
    await started?.stop();
  });
  return {
    get server(): TestServer {
      if (!started) throw new Error("the file's server is not running: use it inside a hook or a test");
      return started;
    },
  };
}
