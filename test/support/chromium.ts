// Debian's Chromium for the browser tests, driven by playwright-core (which brings no browser of its own): why it
// cannot run here, if it cannot (with CI=true a missing browser fails the run instead), and how it is launched.
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

const CHROMIUM = "/usr/bin/chromium";

/** Why the browser tests cannot run on this machine, or null when they can. */
export function chromiumUnavailable(): string | null {
  if (existsSync(CHROMIUM)) return null;
  const reason = `${CHROMIUM} is missing (apt-get install -y chromium)`;
  if (process.env.CI === "true") throw new Error(`${reason}: CI must run the browser tests`);
  return reason;
}

/** Headless Chromium; root (CI, containers) needs Chromium's sandbox off. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ["--no-sandbox"] : [] });
}
