// Mailer of the embedded default: each email becomes an .eml file in DATA_DIR/outbox, written atomically and
// named by its message id (sending that id again overwrites the file; the port does not ask for it).
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { MailNotSentError, type Mail, type Mailer } from "../../mail/mailer.port.ts";
import { DEFAULT_FROM, messageIdHeader } from "../../mail/sender.ts";

/** Header values never carry a line break, so a crafted value cannot add headers. */
const headerValue = (value: string): string => value.replace(/[\r\n]+/g, " ");

const crlf = (text: string): string => text.replace(/\r?\n/g, "\r\n");

/** The body: the text alone, or the text and its HTML alternative as multipart/alternative. */
function body(mail: Mail): string[] {
  const part = (type: string, content: string) => [
    `Content-Type: ${type}; charset=utf-8`,
    "Content-Transfer-Encoding: 8bit",
    "",
    crlf(content),
  ];
  if (mail.html === undefined) return part("text/plain", mail.text);
  // No line of either part can start with the boundary: it holds the attempt's id, which neither text has.
  const boundary = `=_alternative_${mail.messageId.replace(/[^A-Za-z0-9]/g, "")}`;
  return [
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    ...part("text/plain", mail.text),
    `--${boundary}`,
    ...part("text/html", mail.html),
    `--${boundary}--`,
  ];
}

function toEml(mail: Mail, date: Date): string {
  return [
    `Message-ID: ${messageIdHeader(mail.messageId)}`,
    `Date: ${date.toUTCString()}`,
    `From: ${DEFAULT_FROM}`,
    `To: ${headerValue(mail.to)}`,
    `Subject: ${headerValue(mail.subject)}`,
    ...Object.entries(mail.listHeaders ?? {}).map(([name, value]) => `${name}: ${headerValue(value)}`),
    ...(mail.about === undefined || mail.about.length === 0 ? [] : [`X-About: ${headerValue(mail.about.join(" "))}`]),
    "MIME-Version: 1.0",
    ...body(mail),
    "",
  ].join("\r\n");
}

export class OutboxMailer implements Mailer {
  constructor(
    private readonly directory: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async send(mail: Mail): Promise<void> {
    const name = mail.messageId.replace(/[^A-Za-z0-9_-]/g, "_");
    const temporary = join(this.directory, `.${name}.tmp`);
    try {
      await mkdir(this.directory, { recursive: true, mode: 0o700 });
      await writeFile(temporary, toEml(mail, this.clock()), { mode: 0o600 });
      // The rename is atomic: until it succeeds, no mail is in the outbox.
      await rename(temporary, join(this.directory, `${name}.eml`));
    } catch (error) {
      throw new MailNotSentError(
        `the outbox could not be written: ${error instanceof Error ? error.message : String(error)}`,
        false,
      );
    }
  }
}
