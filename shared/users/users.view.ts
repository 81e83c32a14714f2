// Read model of user profiles: who a session or token belongs to, and names and images shown beside content.
export interface UserRecord {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly image: string | null;
  readonly createdAt: string;
}

export interface UsersView {
  get(id: string): Promise<UserRecord | null>;
  getByEmail(email: string): Promise<UserRecord | null>;
  getMany(ids: readonly string[]): Promise<Map<string, UserRecord>>;
}

/** What the projector writes; `tx` is the batch's transaction or session handle. */
export interface UsersWriter<Tx> {
  put(tx: Tx, user: UserRecord): Promise<void>;
  changeProfile(tx: Tx, id: string, name: string, image: string | null): Promise<void>;
  /** The user was erased: their record goes; answers the address it held (to erase elsewhere), or null. */
  erase(tx: Tx, id: string): Promise<string | null>;
}
