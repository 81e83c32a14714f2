// Secrets never reach the logs or the events: session cookies, Authorization headers and token secrets.
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAllInOne, type RunningServer } from "../../../services/all-in-one.ts";
import { mintSession } from "../../../shared/auth/session-verifier.ts";
import { loadConfig } from "../../../shared/config/config.ts";
import { redactedPaths } from "../../../shared/logging/logger.ts";
import { Client, TEST_SESSION_SECRET } from "../../support/server.ts";
import { tempDir } from "../../support/temp-dir.ts";

let server: RunningServer;
let logs = "";
let removeDir: () => Promise<void>;

beforeAll(async () => {
  const dir = await tempDir();
  removeDir = dir.remove;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs += chunk.toString();
      done();
    },
  });
  const logger = pino({ level: "trace", redact: { paths: redactedPaths, censor: "[redacted]" } }, sink);
  server = await startAllInOne(
    loadConfig({ DATA_DIR: dir.path, PORT: "0", AUTH_SESSION_SECRET: TEST_SESSION_SECRET }),
    logger,
  );
});
afterAll(async () => {
  await server.close();
  await removeDir();
});

describe("secrets", () => {
  it("keeps session cookies, bearer headers and token secrets out of logs and events", async () => {
    const cookie = await mintSession(TEST_SESSION_SECRET, {
      sub: crypto.randomUUID(),
      email: "secret@example.com",
      name: "Secret",
    });
    const user = new Client(server.url, { cookie });
    const created = await user.post("/tokens", { name: "hidden" });
    const secret = String(created.body.token);
    const bot = new Client(server.url, { bearer: secret });
    expect((await bot.get("/me")).status).toBe(200);
    expect((await new Client(server.url, { bearer: `${secret}x` }).get("/me")).status).toBe(401);
    expect(logs).toContain("http.request");
    for (const needle of [secret, cookie, secret.slice(4)]) expect(logs).not.toContain(needle);
    const events = JSON.stringify(await server.eventStore.readAll(0, 100_000));
    for (const needle of [secret, cookie]) expect(events).not.toContain(needle);
  });
});
