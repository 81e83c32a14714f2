// `npm run session -- --email EMAIL --name NAME [--picture URL] [--days N] [--link]`: prints a session cookie value
// for local use, signed with the same key the embedded server uses; with --link, a one-time sign-in link instead
// (15 minutes, one use) that sets the cookie in a browser. The same email always gets the same user.
import { parseArgs } from "node:util";
import { z } from "zod";
import { sessionKeyFor } from "./session-key.ts";
import { loadConfig, type Config } from "../config/config.ts";
import { mintSession, SESSION_COOKIE } from "./session-verifier.ts";
import { emailAddress } from "../kernel/email.ts";
import { userIdForEmail } from "./derived-user-id.ts";
import { SIGN_IN_LINK_PATH, SIGN_IN_LINK_SECONDS, SignInLinks } from "./sign-in/sign-in-link.ts";

const argsSchema = z.object({
  email: emailAddress,
  name: z.string().trim().min(1).max(200),
  picture: z.string().url().optional(),
  days: z.coerce.number().positive().max(365).default(7),
  link: z.boolean().default(false),
});

const USAGE = "usage: npm run session -- --email EMAIL --name NAME [--picture URL] [--days N] [--link]";

/** Where the server is reached: PUBLIC_BASE_URL, else its HOST and PORT. */
function serverUrl(config: Config): string {
  return (
    config.PUBLIC_BASE_URL ?? `http://${config.HOST.includes(":") ? `[${config.HOST}]` : config.HOST}:${config.PORT}`
  ).replace(/\/+$/, "");
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      email: { type: "string" },
      name: { type: "string" },
      picture: { type: "string" },
      days: { type: "string" },
      link: { type: "boolean" },
    },
  });
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    process.stderr.write(`${USAGE}\n${parsed.error.message}\n`);
    process.exit(2);
  }
  const config = loadConfig();
  const key = sessionKeyFor(config, { createInDataDir: true });
  if (key.kind !== "secret")
    throw new Error("sessions are verified with AUTH_JWKS_URL here; mint them with that key's issuer");
  const { email, name, picture, days, link } = parsed.data;
  const person = { sub: userIdForEmail(email), email, name, ...(picture ? { picture } : {}) };
  if (link) {
    const token = await new SignInLinks(key.secret).mint(person, new Date());
    process.stderr.write(`open it in a browser within ${SIGN_IN_LINK_SECONDS / 60} minutes; it works once\n`);
    process.stdout.write(`${serverUrl(config)}${SIGN_IN_LINK_PATH}?token=${token}\n`);
    return;
  }
  const token = await mintSession(key.secret, person, Math.round(days * 86_400));
  process.stderr.write(`send it as the cookie ${SESSION_COOKIE}, e.g. curl -b "${SESSION_COOKIE}=$SESSION" ...\n`);
  process.stdout.write(`${token}\n`);
}

await main();
