import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OutboxMailer } from "../../../shared/adapters/outbox/outbox.mailer.ts";
import { mailerContract, type Delivered } from "../../contracts/mailer.contract.ts";
import { tempDir } from "../../support/temp-dir.ts";

/** Reads an .eml file back: headers up to the blank line (a folded line continues the one before), then the text. */
function parseEml(eml: string): Delivered {
  const [head = "", ...rest] = eml.split("\r\n\r\n");
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, "m").exec(head)?.[1] ?? "";
  const headerNames = head
    .split("\r\n")
    .filter((line) => !/^[ \t]/.test(line))
    .map((line) => line.slice(0, line.indexOf(":")).toLowerCase());
  return { to: header("To"), subject: header("Subject"), messageId: header("Message-ID"), text: rest.join("\r\n\r\n").replace(/\r\n$/, "").replace(/\r\n/g, "\n"), headerNames };
}

async function outbox() {
  const dir = await tempDir();
  const delivered = async () => {
    const names = (await readdir(dir.path)).filter((name) => name.endsWith(".eml"));
    return Promise.all(names.map(async (name) => parseEml(await readFile(join(dir.path, name), "utf8"))));
  };
  return { mailer: new OutboxMailer(dir.path), delivered, cleanup: dir.remove };
}

mailerContract("outbox files", outbox);

describe("the outbox mailer", () => {
  it("names each file by its message id, so the same message sent twice leaves one file", async () => {
    const { mailer, delivered, cleanup } = await outbox();
    const mail = { messageId: "attempt-1", to: "ann@example.com", subject: "Once", text: "only once" };
    await mailer.send(mail);
    await mailer.send(mail);
    expect(await delivered()).toHaveLength(1);
    await cleanup();
  });
});
