// A real SMTP server in the test process (smtp-server on a free port of 127.0.0.1) that keeps every message it
// accepts, raw, with its envelope. Plain text only: STARTTLS is switched off, and AUTH (PLAIN or LOGIN) is
// allowed in the clear when the test asks for credentials, so no certificate is needed.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import type { Delivered } from "../contracts/mailer.contract.ts";
import { parseMimeMessage } from "./mime-message.ts";

interface ReceivedMessage {
  readonly mailFrom: string | undefined;
  readonly rcptTo: readonly string[];
  /** The user the client authenticated as, if it did. */
  readonly user: string | undefined;
  readonly raw: string;
}

export interface TestSmtpServerOptions {
  /** When given, the server requires AUTH with exactly these credentials before accepting mail. */
  readonly credentials?: { readonly user: string; readonly pass: string };
  /** Recipients the server refuses at RCPT TO, as a mailbox that does not exist would be. */
  readonly refuseRecipient?: (address: string) => boolean;
  /**
   * Runs once a message is received and kept, before the server answers it: a test can stop the sender
   * there, between its sending and its hearing that the mail was taken.
   */
  readonly beforeAnswer?: (message: ReceivedMessage) => Promise<void>;
}

export interface TestSmtpServer {
  readonly port: number;
  /** `smtp://127.0.0.1:<port>`, without credentials. */
  readonly url: string;
  received(): readonly ReceivedMessage[];
  /** One delivery per envelope recipient, as each recipient's inbox would show the message. */
  delivered(): Delivered[];
  close(): Promise<void>;
}

function deliveriesOf(message: ReceivedMessage): Delivered[] {
  const { headers, text, html } = parseMimeMessage(message.raw);
  const header = (name: string) => headers.find(([key]) => key === name)?.[1] ?? "";
  return message.rcptTo.map((to) => ({
    to,
    subject: header("subject"),
    text,
    html,
    messageId: header("message-id"),
    headerNames: headers.map(([name]) => name),
  }));
}

export async function startSmtpServer(options: TestSmtpServerOptions = {}): Promise<TestSmtpServer> {
  const messages: ReceivedMessage[] = [];
  const { credentials, refuseRecipient, beforeAnswer } = options;
  const server = new SMTPServer({
    disabledCommands: credentials ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    authOptional: credentials === undefined,
    allowInsecureAuth: true,
    disableReverseLookup: true,
    logger: false,
    // Stopping the server should not wait 30 s for a client that left a connection open.
    closeTimeout: 500,
    onAuth(auth, _session, callback) {
      if (credentials && auth.username === credentials.user && auth.password === credentials.pass)
        return callback(null, { user: auth.username });
      callback(new Error("Invalid username or password"));
    },
    onRcptTo(address, _session, callback) {
      if (refuseRecipient?.(address.address))
        return callback(Object.assign(new Error("No such mailbox"), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const { mailFrom, rcptTo } = session.envelope;
        const message = {
          mailFrom: mailFrom === false ? undefined : mailFrom.address,
          rcptTo: rcptTo.map((recipient) => recipient.address),
          user: session.user,
          raw: Buffer.concat(chunks).toString("utf8"),
        };
        messages.push(message);
        (beforeAnswer?.(message) ?? Promise.resolve()).then(
          () => callback(),
          () => callback(),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received: () => [...messages],
    delivered: () => messages.flatMap(deliveriesOf),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
