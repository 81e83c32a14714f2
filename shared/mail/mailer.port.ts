// The mailer port: how the notifier hands an email over for delivery. A mailer keeps header values to one
// line (or refuses them), so a crafted subject or recipient cannot add headers.
export interface Mail {
  /**
   * The delivery attempt's id, sent as the Message-ID header. A mailer need not deduplicate by it (SMTP cannot
   * promise one email for two sends): the notifier sends each attempt at most once.
   */
  readonly messageId: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** An HTML alternative of the same words; the text stays what every mail program can show. */
  readonly html?: string;
  /** The list headers of a notification email (List-Unsubscribe, List-Unsubscribe-Post), each one line. */
  readonly listHeaders?: ListHeaders;
  /**
   * The ids of the pages and folders the mail tells of. A mailer that keeps copies (the embedded outbox) records
   * them with the copy, so purging one of them finds and deletes the mails that named its title.
   */
  readonly about?: readonly string[];
}

/** RFC 2369 and RFC 8058: where to unsubscribe, and that a POST there unsubscribes at once. */
export type ListHeaders = Readonly<Record<"List-Unsubscribe" | "List-Unsubscribe-Post", string>>;

export interface Mailer {
  /**
   * Hands the mail over. Throws MailNotSentError when the mail certainly did not leave; any other error leaves
   * it unknown whether it did (a connection lost after the message was transmitted), and the notifier then
   * does not send it again.
   */
  send(mail: Mail): Promise<void>;
}

/** What a mailer's error says when the mail certainly did not leave. */
export interface NotSent {
  readonly notSent: true;
  /** Trying again cannot help (the address was refused for good, the login is wrong). */
  readonly permanent: boolean;
}

/** The mail certainly did not leave: the notifier may try again within the same attempt unless `permanent`. */
export class MailNotSentError extends Error implements NotSent {
  readonly notSent = true;

  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/** Whether an error a mailer threw says the mail certainly did not leave. */
export const isNotSent = (error: unknown): error is Error & NotSent =>
  error instanceof Error &&
  "notSent" in error &&
  error.notSent === true &&
  "permanent" in error &&
  typeof error.permanent === "boolean";
