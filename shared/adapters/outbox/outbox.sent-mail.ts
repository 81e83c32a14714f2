// The embedded outbox as kept mail: an erasure reads the .eml files one at a time (opendir, so a large outbox is
// never listed whole) and deletes those that name the erased address or name.
import { opendir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import type { SentMail } from "../../mail/sent-mail.port.ts";

export class OutboxSentMail implements SentMail {
  constructor(private readonly directory: string) {}

  async eraseNaming(needles: readonly string[]): Promise<number> {
    const wanted = needles.filter((needle) => needle.length > 0).map((needle) => needle.toLowerCase());
    if (wanted.length === 0) return 0;
    let erased = 0;
    let entries;
    try {
      entries = await opendir(this.directory);
    } catch {
      return 0; // no outbox yet: no mail was ever written
    }
    for await (const entry of entries) {
      if (!entry.isFile() || !entry.name.endsWith(".eml")) continue;
      const file = join(this.directory, entry.name);
      const text = (await readFile(file, "utf8").catch(() => "")).toLowerCase();
      if (!wanted.some((needle) => text.includes(needle))) continue;
      await rm(file, { force: true });
      erased += 1;
    }
    return erased;
  }
}
