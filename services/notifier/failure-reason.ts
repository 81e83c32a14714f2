// Why a send failed, as the notifier records it in InvitationDeliveryFailed and logs it: the mailer's message on
// one line, at most 500 characters, with every email address in it (a mail server's answer usually quotes the
// recipient) and the invitee's own local part replaced by `<address>`, so neither the log nor the event log
// keeps an address in the clear. Pure.

const MAX_CHARACTERS = 500;
/** An address as mail servers quote it, with or without angle brackets. */
const ADDRESS = /<?[^\s<>()[\]"',;:@]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*>?/g;
/** A local part this short is a common word too often to be taken out wherever it appears. */
const LOCAL_PART_MIN_CHARACTERS = 3;

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function failureReason(error: unknown, address: string): string {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ");
  let reason = message.replace(ADDRESS, "<address>");
  const localPart = address.split("@")[0] ?? "";
  if (localPart.length >= LOCAL_PART_MIN_CHARACTERS) {
    reason = reason.replace(new RegExp(`(?<![\\w.+-])${escaped(localPart)}(?![\\w.+-])`, "gi"), "<address>");
  }
  return reason.slice(0, MAX_CHARACTERS);
}
