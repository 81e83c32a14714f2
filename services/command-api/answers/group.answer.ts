// A group as a write answers it: from the read models once they show the write; meanwhile the group as the write
// side's decider holds it, with the dates and member count the write knows.
import { AppError } from "../../../shared/errors/app-error.ts";
import type { GroupState } from "../../../shared/groups/group.decider.ts";
import { toGroupResource, type GroupResource } from "../../../shared/groups/group.resource.ts";
import type { GroupId } from "../../../shared/kernel/ids.ts";
import { answerOf, type Answer } from "./answer.ts";

/** What the write side knows of the group after the write. */
interface HeldGroup {
  readonly state: GroupState;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly memberCount: number;
}

export const groupAnswer = (groupId: GroupId, held: HeldGroup): Answer<GroupResource> =>
  answerOf(
    async (ports) => {
      const group = await ports.views.groups.get(groupId);
      if (!group) throw new AppError("not_found", "group not found");
      return { body: toGroupResource(group) };
    },
    async () => {
      const { state, createdAt, updatedAt, memberCount } = held;
      if (state.status !== "active") throw new AppError("not_found", "group not found");
      return { body: { id: groupId, name: state.name, ownerId: state.ownerId, memberCount, createdAt, updatedAt } };
    },
  );
