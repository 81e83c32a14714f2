// Read model of user profiles: who a session or token belongs to, and names and images shown beside content.
export interface UserRecord {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly image: string | null;
  readonly createdAt: string;
}

export interface UsersView {
  put(user: UserRecord): Promise<void>;
  changeProfile(id: string, name: string, image: string | null): Promise<void>;
  get(id: string): Promise<UserRecord | null>;
  getByEmail(email: string): Promise<UserRecord | null>;
  getMany(ids: readonly string[]): Promise<Map<string, UserRecord>>;
}
