// One try at sending a mail, as the invitation notifier and notification mail make it: how it failed, told
// without the recipient's address (failure-reason.ts), and whether trying again is safe and may help.
import { isNotSent } from "../../shared/mail/mailer.port.ts";
import { failureReason } from "./failure-reason.ts";

export interface SendFailure {
  /** The mailer's message, without the address. */
  readonly reason: string;
  /** The mailer could not say the mail did not leave: a second send could be a second email. */
  readonly mayHaveLeft: boolean;
  /** The mail certainly did not leave, and a later try may succeed (the refusal was not permanent). */
  readonly retryable: boolean;
}

/** Null once `send` succeeded; otherwise how it failed. */
export async function sendOnce(address: string, send: () => Promise<void>): Promise<SendFailure | null> {
  try {
    await send();
    return null;
  } catch (error) {
    const notSent = isNotSent(error);
    return {
      reason: failureReason(error, address),
      mayHaveLeft: !notSent,
      retryable: notSent && !error.permanent,
    };
  }
}
