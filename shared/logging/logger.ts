// pino JSON logs; anything that could carry a secret is redacted before it is written.
import { pino, type Logger } from "pino";

export const redactedPaths = [
  "req.headers.authorization",
  "req.headers.cookie",
  "headers.authorization",
  "headers.cookie",
  'res.headers["set-cookie"]',
  "token",
  "*.token",
  "secret",
  "*.secret",
];

export function createLogger(level: string, name = "workspace"): Logger {
  return pino({ name, level, redact: { paths: redactedPaths, censor: "[redacted]" } });
}
