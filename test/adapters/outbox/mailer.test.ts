import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OutboxMailer } from "../../../shared/adapters/outbox/outbox.mailer.ts";
import { mailerContract, type Delivered } from "../../contracts/mailer.contract.ts";
import { parseMimeMessage } from "../../support/mime-message.ts";
import { tempDir } from "../../support/temp-dir.ts";

/** Reads an .eml file back as a mail program would. */
function parseEml(eml: string): Delivered {
  const { headers, text, html } = parseMimeMessage(eml);
  const header = (name: string) => headers.find(([key]) => key === name)?.[1] ?? "";
  return {
    to: header("to"),
    subject: header("subject"),
    messageId: header("message-id"),
    text,
    html,
    headerNames: headers.map(([name]) => name),
  };
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
