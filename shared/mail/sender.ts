// Who the workspace's emails come from, in one place so every mailer writes the same From and Message-ID.

/** The From address when the deployment names none. */
export const DEFAULT_FROM = "Workspace <no-reply@workspace.invalid>";

/**
 * The Message-ID header of a delivery attempt: its id, at the sender's domain (RFC 5322 asks for a domain the
 * sender controls). Only characters a msg-id may hold survive, so the header stays one well-formed line.
 */
export function messageIdHeader(messageId: string, from: string = DEFAULT_FROM): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? "workspace.invalid";
  return `<${messageId.replace(/[^A-Za-z0-9._-]/g, "_")}@${domain}>`;
}
