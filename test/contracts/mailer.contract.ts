// The Mailer contract: every adapter (outbox files, SMTP, ...) must pass these. The factory gives a way to
// read back what was delivered, as a test inbox would. Sending the same message twice may deliver two emails
// (SMTP cannot promise otherwise): the notifier, not the mailer, sends at most once per delivery attempt.
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Mailer } from "../../shared/mail/mailer.port.ts";

export interface Delivered {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** The HTML alternative, or null for a text-only message. */
  readonly html: string | null;
  /** The Message-ID header's value. */
  readonly messageId: string;
  /** The names of the delivered message's headers, lower-cased, as the recipient's mail program sees them. */
  readonly headerNames: readonly string[];
}

export type MailerFactory = () => Promise<{
  mailer: Mailer;
  delivered: () => Promise<Delivered[]>;
  cleanup: () => Promise<void>;
}>;

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
      await mailer.send({
        messageId: randomUUID(),
        to,
        subject: "Ann invited you",
        text: "Line one\nLine two — ünïcode",
      });
      const mails = (await delivered())
        .filter((mail) => mail.to === to)
        .map(({ subject, text }) => ({ to, subject, text }));
      expect(mails).toEqual([{ to, subject: "Ann invited you", text: "Line one\nLine two — ünïcode" }]);
      expect((await delivered()).find((mail) => mail.to === to)?.html).toBeNull();
    });

    it("delivers an HTML alternative beside the text when the mail has one", async () => {
      const to = `${randomUUID()}@example.com`;
      const html = '<p>Ann invited you to <a href="https://example.com/x?a=1&amp;b=2">a page</a> — ünïcode</p>';
      await mailer.send({ messageId: randomUUID(), to, subject: "Rich", text: "Ann invited you to a page", html });
      const [mail] = (await delivered()).filter((m) => m.to === to);
      expect(mail?.text).toBe("Ann invited you to a page");
      expect(mail?.html).toBe(html);
    });

    it("names the message by the delivery attempt's id, so a recipient's mail program can tell attempts apart", async () => {
      const to = `${randomUUID()}@example.com`;
      const first = randomUUID();
      const second = randomUUID();
      await mailer.send({ messageId: first, to, subject: "First", text: "x" });
      await mailer.send({ messageId: second, to, subject: "Second", text: "x" });
      const ids = (await delivered()).filter((mail) => mail.to === to).map((mail) => mail.messageId);
      expect(ids).toHaveLength(2);
      expect(ids.find((id) => id.includes(first))).toMatch(/^<[^<>\s]+@[^<>\s]+>$/);
      expect(ids.find((id) => id.includes(second))).toMatch(/^<[^<>\s]+@[^<>\s]+>$/);
    });

    it("keeps line breaks in a subject from becoming headers", async () => {
      const to = `${randomUUID()}@example.com`;
      await mailer.send({ messageId: randomUUID(), to, subject: "Hi\r\nBcc: victim@example.com", text: "x" });
      const [mail] = (await delivered()).filter((m) => m.to === to);
      expect(mail?.subject).not.toMatch(/[\r\n]/);
      expect(mail?.subject).toContain("Bcc: victim@example.com");
      expect(mail?.headerNames).not.toContain("bcc");
    });

    it("keeps line breaks in a recipient from becoming headers, or refuses the address", async () => {
      const subject = `Crafted ${randomUUID()}`;
      const crafted = `${randomUUID()}@example.com\r\nBcc: victim@example.com`;
      const refused = await mailer.send({ messageId: randomUUID(), to: crafted, subject, text: "x" }).then(
        () => false,
        () => true,
      );
      const mails = (await delivered()).filter((m) => m.subject === subject);
      expect(mails).toHaveLength(refused ? 0 : 1);
      for (const mail of mails) {
        expect(mail.to).not.toMatch(/[\r\n]/);
        expect(mail.headerNames).not.toContain("bcc");
      }
    });
  });
}
