import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { OutboxMailer } from "../../../shared/adapters/outbox/outbox.mailer.ts";
import { mailerContract, type Delivered } from "../../contracts/mailer.contract.ts";
import { tempDir } from "../../support/temp-dir.ts";

/** Reads the .eml files back: headers up to the blank line, then the text. */
function parseEml(eml: string): Delivered {
  const [head = "", ...rest] = eml.split("\r\n\r\n");
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, "m").exec(head)?.[1] ?? "";
  return { to: header("To"), subject: header("Subject"), text: rest.join("\r\n\r\n").replace(/\r\n$/, "").replace(/\r\n/g, "\n") };
}

mailerContract("outbox files", async () => {
  const dir = await tempDir();
  const delivered = async () => {
    const names = (await readdir(dir.path)).filter((name) => name.endsWith(".eml"));
    return Promise.all(names.map(async (name) => parseEml(await readFile(join(dir.path, name), "utf8"))));
  };
  return { mailer: new OutboxMailer(dir.path), delivered, cleanup: dir.remove };
});
