// The group and group-member records clients see (GET/POST /groups, GET /groups/{id}/members).
import { z } from "zod";
import type { GroupMemberRecord } from "../access/access.view.ts";
import type { UserRecord } from "../users/users.view.ts";
import type { GroupRecord } from "./groups.view.ts";

export const groupResource = z
  .object({
    id: z.uuid(),
    name: z.string(),
    ownerId: z.uuid(),
    memberCount: z.number().int().nonnegative(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({
    id: "Group",
    description:
      "A named set of people of one workspace, to whom pages, folders and a workspace role are given at once",
  });
export type GroupResource = z.infer<typeof groupResource>;

export const toGroupResource = (group: GroupRecord): GroupResource => ({
  id: group.id,
  name: group.name,
  ownerId: group.ownerId,
  memberCount: group.memberCount,
  createdAt: group.createdAt,
  updatedAt: group.updatedAt,
});

export const groupMemberResource = z
  .object({
    userId: z.uuid(),
    name: z.string(),
    /** Shown to the group's managers only; its members see each other by name. */
    email: z.string().nullable(),
    image: z.string().nullable(),
    addedAt: z.string(),
  })
  .meta({ id: "GroupMember", description: "A member of a group, as its members and managers see them" });

export const toGroupMemberResource = (member: GroupMemberRecord, user: UserRecord | undefined, showEmail: boolean) => ({
  userId: member.memberId,
  name: user?.name ?? "",
  email: showEmail ? (user?.email ?? "") : null,
  image: user?.image ?? null,
  addedAt: member.createdAt,
});
