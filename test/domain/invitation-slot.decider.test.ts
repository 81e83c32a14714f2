import { randomUUID } from "node:crypto";
import { describe, it } from "vitest";
import { invitationIdSchema } from "../../shared/kernel/ids.ts";
import { invitationSlotDecider, type InvitationSlotEvent } from "../../shared/sharing/invitation-slot.decider.ts";
import { deciderSpec } from "../support/decider-spec.ts";

const spec = deciderSpec(invitationSlotDecider);
const first = invitationIdSchema.parse(randomUUID());
const second = invitationIdSchema.parse(randomUUID());
const taken = (invitationId: typeof first, previous: typeof first | null): InvitationSlotEvent => ({
  type: "InvitationSlotTaken",
  data: { invitationId, previous },
});

describe("invitation slot", () => {
  it("is taken by the first invitation of an address", () => {
    spec
      .given([])
      .when({ type: "TakeSlot", invitationId: first, previous: null })
      .then([taken(first, null)]);
  });

  it("passes to a new invitation only from the holder it saw", () => {
    spec
      .given([taken(first, null)])
      .when({ type: "TakeSlot", invitationId: second, previous: first })
      .then([taken(second, first)]);
    spec
      .given([taken(first, null)])
      .when({ type: "TakeSlot", invitationId: second, previous: null })
      .thenRefuses("conflict");
  });
});
