// The people directory in MongoDB: grant contacts in their own collection; a search gathers the viewer's circle
// (their contacts, their workspace's members, the owners and members of the workspaces they joined) and matches
// the prefix among those users only, so a stranger's query reads nothing.
import type {
  Contact,
  DirectoryQuery,
  DirectoryView,
  DirectoryWriter,
  Person,
} from "../../directory/directory.view.ts";
import type { GenerationRef, MongoBatch, MongoModel } from "./mongo-batch.ts";

type ContactDoc = { _id: string; viewerId: string; personId: string; via: string; showsAddress: boolean };
type MemberDoc = { _id: string; ownerId: string; memberId: string };
type UserDoc = { _id: string; name: string; email: string; image: string | null };

export const directoryModel: MongoModel = {
  collections: ["contacts"],
  indexes: [
    {
      collection: "contacts",
      name: "contacts_viewer",
      keys: { viewerId: 1, personId: 1 },
      serves: "GET /users: the people a user shares with through grants",
    },
    { collection: "contacts", name: "contacts_via", keys: { via: 1 }, serves: "a revoked grant's contacts" },
  ],
};

const contacts = (ref: GenerationRef) => ref.current().collection<ContactDoc>("contacts");
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export class MongoDirectoryWriter implements DirectoryWriter<MongoBatch> {
  constructor(private readonly ref: GenerationRef) {}

  async addContact(tx: MongoBatch, contact: Contact): Promise<void> {
    if (contact.viewerId === contact.personId) return;
    const _id = `${contact.viewerId}:${contact.personId}:${contact.via}`;
    await contacts(this.ref).updateOne(
      { _id },
      {
        $set: { viewerId: contact.viewerId, personId: contact.personId, via: contact.via },
        $max: { showsAddress: contact.showsAddress },
      },
      { upsert: true, ...tx.options },
    );
  }

  async removeGrantContacts(tx: MongoBatch, via: string, userId: string): Promise<void> {
    await contacts(this.ref).deleteMany({ via, $or: [{ viewerId: userId }, { personId: userId }] }, tx.options);
  }
}

export class MongoDirectoryView implements DirectoryView {
  constructor(private readonly ref: GenerationRef) {}

  async search(query: DirectoryQuery): Promise<Person[]> {
    const generation = this.ref.current();
    const members = generation.collection<MemberDoc>("members");
    const shows = new Map<string, boolean>();
    const add = (id: string, address: boolean) => {
      if (id !== query.viewerId) shows.set(id, (shows.get(id) ?? false) || address);
    };
    for (const doc of await contacts(this.ref)
      .find({ viewerId: query.viewerId }, { projection: { personId: 1, showsAddress: 1 } })
      .toArray())
      add(doc.personId, doc.showsAddress);
    for (const doc of await members.find({ ownerId: query.viewerId }, { projection: { memberId: 1 } }).toArray())
      add(doc.memberId, true);
    for (const doc of await members
      .find({ ownerId: { $in: [...query.joinedWorkspaces] } }, { projection: { memberId: 1 } })
      .toArray())
      add(doc.memberId, false);
    for (const ownerId of query.joinedWorkspaces) add(ownerId, false);
    if (shows.size === 0) return [];
    const word = new RegExp(`(^|\\s)${escaped(query.prefix)}`, "i");
    const start = new RegExp(`^${escaped(query.prefix)}`, "i");
    const found = await generation
      .collection<UserDoc>("users")
      .find({ _id: { $in: [...shows.keys()] } })
      .toArray();
    return found
      .filter((user) => word.test(user.name) || (shows.get(user._id) === true && start.test(user.email)))
      .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a._id.localeCompare(b._id))
      .slice(0, query.limit)
      .map((user) => ({
        id: user._id,
        name: user.name,
        email: shows.get(user._id) === true ? user.email : null,
        image: user.image,
      }));
  }
}
