// Mailer of the split deployment: hands each email to an SMTP server through nodemailer, on a connection of its
// own (invitations are few, and an unpooled send cannot inherit a connection the server has since dropped).
// It does not deduplicate: the same mail sent twice may arrive twice, which the notifier prevents.
import type { ConnectionOptions } from "node:tls";
import nodemailer from "nodemailer";
import { parseConnectionUrl } from "nodemailer/lib/shared/index.js";
import SMTPTransport from "nodemailer/lib/smtp-transport/index.js";
import { z } from "zod";
import type { Mail, Mailer, NotSent } from "../../mail/mailer.port.ts";
import { DEFAULT_FROM, messageIdHeader } from "../../mail/sender.ts";

const smtpUrlSchema = z.url({ protocol: /^smtps?$/, hostname: /./ });

/**
 * Bounds on how long a send waits, so a server that is down or silent fails the send instead of holding the
 * notifier (nodemailer's own defaults are 2 minutes to connect, 30 s for the greeting and 10 minutes of silence).
 */
const DEFAULT_SMTP_TIMEOUTS = {
  connectionTimeoutMs: 10_000,
  greetingTimeoutMs: 10_000,
  socketTimeoutMs: 30_000,
} as const;

export interface SmtpMailerOptions {
  /** The From header and envelope sender; `DEFAULT_FROM` when absent. */
  readonly from?: string;
  /** How long to wait for the TCP (or TLS) connection to open. */
  readonly connectionTimeoutMs?: number;
  /** How long to wait for the server's greeting once connected. */
  readonly greetingTimeoutMs?: number;
  /** How long the server may stay silent at any later point of the conversation. */
  readonly socketTimeoutMs?: number;
  /** TLS socket options (a private CA, say), laid over the URL's `tls.*` parameters. */
  readonly tls?: ConnectionOptions;
}

/**
 * SMTP commands that come before the message is transmitted: a failure there means nothing left. nodemailer
 * names a connection lost at any stage, during the message too, "CONN", so that one proves nothing.
 */
const BEFORE_THE_MESSAGE = /^(EHLO|HELO|LHLO|STARTTLS|AUTH|MAIL FROM|RCPT TO)/i;

/**
 * A send that did not hand the email over, whose fate is unknown (the connection was lost while or after the
 * message was transmitted: it may have left). Carries nodemailer's code (EENVELOPE, ECONNECTION, ETIMEDOUT,
 * EAUTH, ...), never the mail or the credentials.
 */
class SmtpError extends Error {
  override readonly name = "SmtpSendError";

  constructor(
    readonly code: string,
    message: string,
    readonly responseCode?: number,
    readonly command?: string,
  ) {
    super(message);
  }
}

/** A send that certainly did not hand the email over: refused, or failed before the message was transmitted. */
class SmtpSendError extends SmtpError implements NotSent {
  readonly notSent = true;
  /** A refused login cannot improve; a refused recipient is permanent unless the server said to try later (4xx). */
  readonly permanent =
    this.code === "EAUTH" || (this.responseCode === undefined ? this.code === "EENVELOPE" : this.responseCode >= 500);

  /**
   * Copies only what explains the failure: nodemailer's errors carry the server's response, which is kept.
   * Classifies it: refused or unreachable before the message was transmitted, or refused by the server's
   * answer to it, the mail certainly did not leave; a connection lost while or after transmitting it leaves
   * its fate unknown.
   */
  static from(error: unknown): SmtpError {
    if (!(error instanceof Error)) return new SmtpError("EUNKNOWN", `smtp send failed: ${String(error)}`);
    const code = "code" in error && typeof error.code === "string" ? error.code : "EUNKNOWN";
    const responseCode =
      "responseCode" in error && typeof error.responseCode === "number" ? error.responseCode : undefined;
    const command = "command" in error && typeof error.command === "string" ? error.command : undefined;
    const message = `smtp send failed (${code}): ${error.message}`;
    const answered = responseCode !== undefined;
    // Otherwise only failures that happen before any exchange count: no server, no address, no login.
    const beforeMessage =
      (command !== undefined && BEFORE_THE_MESSAGE.test(command)) ||
      ["EDNS", "EAUTH", "EENVELOPE"].includes(code) ||
      /ECONNREFUSED|ENOTFOUND/.test(error.message);
    return answered || beforeMessage
      ? new SmtpSendError(code, message, responseCode, command)
      : new SmtpError(code, message, responseCode, command);
  }
}

const oneLine = (value: string): string => value.replace(/[\r\n]+/g, " ");

export class SmtpMailer implements Mailer {
  private constructor(
    private readonly transporter: nodemailer.Transporter<SMTPTransport.SentMessageInfo, SMTPTransport.Options>,
    private readonly from: string,
  ) {}

  /**
   * `smtp://[user:pass@]host[:port]` (plain, upgraded with STARTTLS when the server offers it; port 587 by
   * default) or `smtps://...` (TLS from the start; port 465 by default). Percent-encode reserved characters in
   * the user and password. The query string is read as nodemailer reads it: `requireTLS=true` refuses to send
   * without STARTTLS, `ignoreTLS=true` never tries it, `tls.<option>=value` sets a TLS socket option (such as
   * `tls.rejectUnauthorized=false` for a self-signed test server), and `connectionTimeout`, `greetingTimeout` or
   * `socketTimeout` (ms) replace the defaults. The options object wins over the URL; logging is always off, so
   * neither the mail nor the credentials reach a log.
   */
  static fromUrl(url: string, options: SmtpMailerOptions = {}): SmtpMailer {
    // The URL holds credentials: the error names what is wrong, never the value.
    if (!smtpUrlSchema.safeParse(url).success)
      throw new Error("invalid SMTP URL: expected smtp://[user:pass@]host[:port] or smtps://...");
    const fromUrl = parseConnectionUrl(url);
    // The transport is built here rather than by createTransport, which a `pool` or `jsonTransport` query
    // parameter would turn into another kind of transport.
    const transport = new SMTPTransport({
      connectionTimeout: DEFAULT_SMTP_TIMEOUTS.connectionTimeoutMs,
      greetingTimeout: DEFAULT_SMTP_TIMEOUTS.greetingTimeoutMs,
      socketTimeout: DEFAULT_SMTP_TIMEOUTS.socketTimeoutMs,
      ...fromUrl,
      ...(options.connectionTimeoutMs === undefined ? {} : { connectionTimeout: options.connectionTimeoutMs }),
      ...(options.greetingTimeoutMs === undefined ? {} : { greetingTimeout: options.greetingTimeoutMs }),
      ...(options.socketTimeoutMs === undefined ? {} : { socketTimeout: options.socketTimeoutMs }),
      tls: { ...fromUrl.tls, ...options.tls },
      logger: false,
      debug: false,
      transactionLog: false,
    });
    return new SmtpMailer(nodemailer.createTransport(transport), options.from ?? DEFAULT_FROM);
  }

  async send(mail: Mail): Promise<void> {
    let info: SMTPTransport.SentMessageInfo;
    try {
      info = await this.transporter.sendMail({
        from: this.from,
        // An address object, not a string, so a comma in it cannot add a recipient.
        to: { name: "", address: mail.to },
        subject: mail.subject,
        text: mail.text,
        ...(mail.html === undefined ? {} : { html: mail.html }),
        // Header values kept to one line, so a value cannot add headers.
        ...(mail.listHeaders === undefined
          ? {}
          : {
              headers: Object.fromEntries(
                Object.entries(mail.listHeaders).map(([name, value]) => [name, oneLine(value)]),
              ),
            }),
        messageId: messageIdHeader(mail.messageId, this.from),
      });
    } catch (error) {
      throw SmtpSendError.from(error);
    }
    if (info.rejected.length > 0)
      throw new SmtpSendError("EENVELOPE", "smtp send failed (EENVELOPE): the server refused the recipient");
  }
}
