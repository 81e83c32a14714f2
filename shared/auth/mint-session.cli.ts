// `npm run session -- --email EMAIL --name NAME [--picture URL] [--days N]`: prints a session cookie value
// for local use, signed with the same key the embedded server uses. The same email always gets the same user.
import { createHash } from "node:crypto";
import { parseArgs } from "node:util";
import { z } from "zod";
import { sessionKeyFor } from "./session-key.ts";
import { loadConfig } from "../config/config.ts";
import { mintSession, SESSION_COOKIE } from "./session-verifier.ts";
import { emailAddress } from "../kernel/email.ts";

/** A stable UUID (version 8 layout) derived from the email address. */
export function userIdForEmail(email: string): string {
  const hex = createHash("sha256").update(email.trim().toLowerCase()).digest("hex").slice(0, 32).split("");
  hex[12] = "8";
  hex[16] = ((Number.parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  const h = hex.join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const argsSchema = z.object({
  email: emailAddress,
  name: z.string().trim().min(1).max(200),
  picture: z.string().url().optional(),
  days: z.coerce.number().positive().max(365).default(7),
});

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { email: { type: "string" }, name: { type: "string" }, picture: { type: "string" }, days: { type: "string" } },
  });
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    process.stderr.write(`usage: npm run session -- --email EMAIL --name NAME [--picture URL] [--days N]\n${parsed.error.message}\n`);
    process.exit(2);
  }
  const key = sessionKeyFor(loadConfig(), { createInDataDir: true });
  if (key.kind !== "secret") throw new Error("sessions are verified with AUTH_JWKS_URL here; mint them with that key's issuer");
  const { email, name, picture, days } = parsed.data;
  const token = await mintSession(key.secret, { sub: userIdForEmail(email), email, name, ...(picture ? { picture } : {}) }, Math.round(days * 86_400));
  process.stderr.write(`send it as the cookie ${SESSION_COOKIE}, e.g. curl -b "${SESSION_COOKIE}=$SESSION" ...\n`);
  process.stdout.write(`${token}\n`);
}

await main();
