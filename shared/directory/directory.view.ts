// Read model of the people directory: who shares with whom through grants (a workspace's members and owner are
// read from the access read model at query time). A contact row says whether its viewer is shown the person's
// address: the grantor and the entity's owner see the grantee's address in the entity's share listing already;
// a grantee sees only the name of who shared with them.
export interface Contact {
  readonly viewerId: string;
  readonly personId: string;
  /** What links them: `page:<id>` or `folder:<id>`, so revoking that grant takes the row away. */
  readonly via: string;
  readonly showsAddress: boolean;
}

export interface Person {
  readonly id: string;
  readonly name: string;
  /** Null where the API shows the viewer no address of this person. */
  readonly email: string | null;
  readonly image: string | null;
}

export interface DirectoryQuery {
  readonly viewerId: string;
  /** The workspaces the viewer joined (their owners): their owners and members are in the viewer's circle. */
  readonly joinedWorkspaces: readonly string[];
  /** Lower-cased: matches the start of a name or of any word of it, or (only where the address is shown) of an address. */
  readonly prefix: string;
  readonly limit: number;
}

export interface DirectoryView {
  /** People in the viewer's circle matching the prefix, by name; never the viewer. */
  search(query: DirectoryQuery): Promise<Person[]>;
}

export interface DirectoryWriter<Tx> {
  addContact(tx: Tx, contact: Contact): Promise<void>;
  /** The grant `via` to `userId` was revoked: the rows it made, both ways, go. */
  removeGrantContacts(tx: Tx, via: string, userId: string): Promise<void>;
}
