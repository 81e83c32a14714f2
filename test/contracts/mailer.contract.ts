// The Mailer contract: every adapter (outbox files, SMTP, ...) must pass these. The factory gives a way to
// read back what was delivered, as a test inbox would.
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Mailer } from "../../shared/mail/mailer.port.ts";

export interface Delivered {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

export type MailerFactory = () => Promise<{ mailer: Mailer; delivered: () => Promise<Delivered[]>; cleanup: () => Promise<void> }>;

export function mailerContract(name: string, factory: MailerFactory): void {
  describe(`Mailer contract: ${name}`, () => {
    let mailer: Mailer;
    let delivered: () => Promise<Delivered[]>;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ mailer, delivered, cleanup } = await factory());
    });
    afterEach(async () => {
      await cleanup();
    });

    it("delivers the recipient, subject and text as sent", async () => {
      const to = `${randomUUID()}@example.com`;
      await mailer.send({ messageId: randomUUID(), to, subject: "Ann invited you", text: "Line one\nLine two — ünïcode" });
      expect((await delivered()).filter((mail) => mail.to === to)).toEqual([{ to, subject: "Ann invited you", text: "Line one\nLine two — ünïcode" }]);
    });

    it("delivers one email for a message id sent twice", async () => {
      const to = `${randomUUID()}@example.com`;
      const mail = { messageId: randomUUID(), to, subject: "Once", text: "only once" };
      await mailer.send(mail);
      await mailer.send(mail);
      expect((await delivered()).filter((m) => m.to === to)).toHaveLength(1);
    });

    it("keeps line breaks in a subject from becoming headers", async () => {
      const to = `${randomUUID()}@example.com`;
      await mailer.send({ messageId: randomUUID(), to, subject: "Hi\r\nBcc: victim@example.com", text: "x" });
      const [mail] = (await delivered()).filter((m) => m.to === to);
      expect(mail?.subject).not.toMatch(/[\r\n]/);
      expect(mail?.subject).toContain("Bcc: victim@example.com");
    });
  });
}
