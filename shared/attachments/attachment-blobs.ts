// Where an attachment's bytes live in the blob store: one blob per attachment, named by its id alone (the type
// and name are in its record), and a distinct suffix so the orphan sweep never takes one for an image's.
export const attachmentBlobKey = (attachmentId: string): string => `${attachmentId.toLowerCase()}.attachment`;

/** The attachment id a blob key names, or null for any other blob. */
export function attachmentIdOfBlob(key: string): string | null {
  return /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.attachment$/.exec(key)?.[1] ?? null;
}
