// Read model of groups: each group's name and member count, for GET /groups and GET /groups/{id}. Who belongs
// to a group, and what it was given, are in the access read model, which every access check reads.
import type { ListKey } from "../read-store/list-query.ts";

export interface GroupRecord {
  readonly id: string;
  readonly ownerId: string;
  readonly name: string;
  readonly memberCount: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Global position of GroupCreated: the list's cursor. */
  readonly position: number;
}

export interface GroupsView {
  /** A group that was not deleted. */
  get(id: string): Promise<GroupRecord | null>;
  /**
   * The groups of the workspaces `ownerIds` and the groups `groupIds`, newest first, before `before`; at most
   * `limit`. Both lists are the caller's own (the workspaces they manage, the groups they belong to), so the
   * cost follows what they can see.
   */
  list(query: {
    ownerIds: readonly string[];
    groupIds: readonly string[];
    before: ListKey | null;
    limit: number;
  }): Promise<GroupRecord[]>;
}

export interface GroupsWriter<Tx> {
  put(tx: Tx, group: GroupRecord): Promise<void>;
  rename(tx: Tx, id: string, name: string, updatedAt: string): Promise<void>;
  /** A member joined (+1) or left (-1). */
  countMembers(tx: Tx, id: string, delta: 1 | -1, updatedAt: string): Promise<void>;
  remove(tx: Tx, id: string): Promise<void>;
}
