// The mailer port: how the notifier hands an email over for delivery.
export interface Mail {
  /** Stable per delivery attempt: sending the same message id twice delivers one email. */
  readonly messageId: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}
