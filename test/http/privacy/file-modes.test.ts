// Everything the service keeps in DATA_DIR (all content, the session secret, the mail outbox) is readable by
// the service's user only, even under a permissive umask.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startAllInOne, type RunningServer } from "../../../services/all-in-one.ts";
import { loadConfig } from "../../../shared/config/config.ts";
import { Client } from "../../support/server.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { mintSession } from "../../../shared/auth/session-verifier.ts";

let dir: { path: string; remove: () => Promise<void> };
let server: RunningServer;
let previousUmask: number;
beforeAll(async () => {
  dir = await tempDir();
  // Vitest runs each test file in a process of its own: the umask changes nothing elsewhere.
  previousUmask = process.umask(0o000);
  server = await startAllInOne(loadConfig({ DATA_DIR: join(dir.path, "data"), PORT: "0", LOG_LEVEL: "silent" }));
});
afterAll(async () => {
  await server.close();
  process.umask(previousUmask);
  await dir.remove();
});

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

it("creates DATA_DIR, its SQLite files, the session secret and the outbox for the service's user only", async () => {
  const dataDir = join(dir.path, "data");
  const secret = readFileSync(join(dataDir, "session-secret"), "utf8").trim();
  const owner = new Client(server.url, {
    cookie: await mintSession(secret, { sub: crypto.randomUUID(), email: "modes@example.com", name: "Mo" }),
  });
  const page = await owner.post("/pages", { title: "Private" });
  expect(
    (
      await owner.post(`/shares/entity/page/${String(page.body.id)}/grants`, {
        email: "someone@example.com",
        permission: "view",
      })
    ).status,
  ).toBe(202);
  const deadline = Date.now() + 5_000;
  // The notifier writes the mail after the grant's answer, and creates the outbox with its first message.
  const mails = () =>
    existsSync(join(dataDir, "outbox"))
      ? readdirSync(join(dataDir, "outbox")).filter((name) => name.endsWith(".eml"))
      : [];
  while (mails().length === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(modeOf(dataDir)).toBe("700");
  expect(modeOf(join(dataDir, "outbox"))).toBe("700");
  const files = readdirSync(dataDir, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
  expect(files).toEqual(
    expect.arrayContaining(["events.sqlite", "events.sqlite-wal", "read-models.sqlite", "session-secret"]),
  );
  for (const name of files) expect(`${name} ${modeOf(join(dataDir, name))}`).toBe(`${name} 600`);
  for (const name of readdirSync(join(dataDir, "outbox")))
    expect(`${name} ${modeOf(join(dataDir, "outbox", name))}`).toBe(`${name} 600`);
});

it("takes back what an earlier run or a permissive umask left readable by others", async () => {
  const older = await tempDir();
  const dataDir = join(older.path, "data");
  mkdirSync(join(dataDir, "outbox"), { recursive: true, mode: 0o755 });
  chmodSync(dataDir, 0o755);
  writeFileSync(join(dataDir, "events.sqlite"), "", { mode: 0o644 });
  writeFileSync(join(dataDir, "session-secret"), "an-older-secret-that-is-long-enough-for-hs256\n", { mode: 0o644 });
  const restarted = await startAllInOne(loadConfig({ DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "silent" }));
  try {
    expect(modeOf(dataDir)).toBe("700");
    expect(modeOf(join(dataDir, "outbox"))).toBe("700");
    expect(modeOf(join(dataDir, "events.sqlite"))).toBe("600");
    expect(modeOf(join(dataDir, "session-secret"))).toBe("600");
  } finally {
    await restarted.close();
    await older.remove();
  }
});
