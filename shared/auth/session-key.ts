// Which key verifies sessions: AUTH_JWKS_URL, AUTH_SESSION_SECRET, or (embedded default only) a random
// secret created once in DATA_DIR and kept, so `npm start` needs no setup and sessions survive restarts.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SessionKey } from "./session-verifier.ts";
import { PRIVATE_DIRECTORY, type Config } from "../config/config.ts";

const SESSION_SECRET_FILE = "session-secret";

export function sessionKeyFor(config: Config, options: { createInDataDir: boolean }): SessionKey {
  if (config.AUTH_JWKS_URL) return { kind: "jwks", url: config.AUTH_JWKS_URL };
  if (config.AUTH_SESSION_SECRET) return { kind: "secret", secret: config.AUTH_SESSION_SECRET };
  const file = join(config.DATA_DIR, SESSION_SECRET_FILE);
  try {
    const stored = readFileSync(file, "utf8").trim();
    if (stored.length >= 32) return { kind: "secret", secret: stored };
  } catch {
    // no stored secret yet
  }
  if (!options.createInDataDir) throw new Error("set AUTH_SESSION_SECRET or AUTH_JWKS_URL");
  mkdirSync(config.DATA_DIR, { recursive: true, mode: PRIVATE_DIRECTORY });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
  return { kind: "secret", secret };
}
