// The erasures the log migration repeats. A log written before sealing holds its personal data and content in
// plaintext, and an erasure recorded in it (an account or an invited address erased, a page or folder purged)
// could destroy no key of what came before it. The migration seals those earlier events under their subject's
// key as it copies them, so at the copy of the erasing event it destroys the keys the erasure would have
// destroyed had they existed:
// what the erasure took out of the read models is then unreadable in the new log too, and only what the log
// records after it (the same identity signing in again) is sealed under a new key. Keys are destroyed before
// the erasing event is appended, so a copy cut short in between repeats the destruction when resumed.
import type { RecordedEvent } from "../event-store/event-store.port.ts";
import { envelopeHeader } from "./envelope.ts";
import { subjects } from "./key-store.port.ts";

/** What an erasing event's subjects are found with: the source log (plain), and the addresses' keyed hash. */
export interface ErasureLookup {
  readonly readSource: (stream: string) => Promise<readonly RecordedEvent[]>;
  readonly addressHash: (address: string) => string;
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const idIn = (data: unknown, field: string): string | null => {
  const value = isRecord(data) ? data[field] : undefined;
  return typeof value === "string" && value.length > 0 ? value : null;
};

/** An item's subject as the key store names it (`page:<id>`, `folder:<id>`). */
const itemSubject = (kind: "page" | "folder", id: string | null): string[] => (id === null ? [] : [subjects[kind](id)]);

/**
 * The account's key, and the key of every address it registered with in plaintext (an address sealed already
 * was erased with its key when the account was).
 */
async function accountSubjects(data: unknown, lookup: ErasureLookup): Promise<string[]> {
  const userId = idIn(data, "userId");
  if (userId === null) return [];
  const addresses = new Set<string>();
  for (const event of await lookup.readSource(`user-${userId}`)) {
    const email = event.type === "UserRegistered" ? idIn(event.data, "email") : null;
    if (email !== null && envelopeHeader(email) === null) addresses.add(email.trim().toLowerCase());
  }
  return [subjects.user(userId), ...[...addresses].map((address) => subjects.address(lookup.addressHash(address)))];
}

/** The key of the address an invitation named in plaintext (one sealed already was erased with its key). */
async function invitedAddressSubjects(data: unknown, lookup: ErasureLookup): Promise<string[]> {
  const invitationId = idIn(data, "invitationId");
  if (invitationId === null) return [];
  const queued = (await lookup.readSource(`invitation-${invitationId}`)).find(
    (event) => event.type === "InvitationQueued",
  );
  const email = queued ? idIn(queued.data, "email") : null;
  return email === null || envelopeHeader(email) !== null
    ? []
    : [subjects.address(lookup.addressHash(email.trim().toLowerCase()))];
}

const erasing: Readonly<Record<string, (data: unknown, lookup: ErasureLookup) => Promise<string[]>>> = {
  UserErased: accountSubjects,
  InvitationAddressErased: invitedAddressSubjects,
  PagePurged: async (data) => itemSubject("page", idIn(data, "pageId")),
  FolderPurged: async (data) => itemSubject("folder", idIn(data, "folderId")),
};

/** Whether copying an event of this type destroys keys first. */
export const erasesKeys = (type: string): boolean => type in erasing;

/** The subjects whose keys the copy of this event destroys first; empty for an event that erases nothing. */
export function subjectsErasedBy(event: RecordedEvent, lookup: ErasureLookup): Promise<string[]> {
  const subjectsOf = erasing[event.type];
  return subjectsOf ? subjectsOf(event.data, lookup) : Promise.resolve([]);
}
