// Whether a page is a template: marked and unmarked through its own stream (template-<pageId>), apart from the
// page's stream so that the page's revision (its ETag) does not move when it becomes one.
import { z } from "zod";
import type { Decider } from "../kernel/decider.ts";
import { pageIdSchema, type PageId } from "../kernel/ids.ts";

export const templateEventSchemas = [
  z.object({ type: z.literal("PageMarkedTemplate"), data: z.object({ pageId: pageIdSchema }) }),
  z.object({ type: z.literal("PageUnmarkedTemplate"), data: z.object({ pageId: pageIdSchema }) }),
] as const;
export type TemplateEvent = z.infer<(typeof templateEventSchemas)[number]>;

export type TemplateCommand = { type: "SetTemplate"; pageId: PageId; isTemplate: boolean };

export interface TemplateState {
  readonly isTemplate: boolean;
}

export const templateStream = (pageId: string): string => `template-${pageId}`;

export const templateDecider: Decider<TemplateCommand, TemplateState, TemplateEvent> = {
  initialState: { isTemplate: false },
  decide(command, state) {
    if (command.isTemplate === state.isTemplate) return [];
    return [
      { type: command.isTemplate ? "PageMarkedTemplate" : "PageUnmarkedTemplate", data: { pageId: command.pageId } },
    ];
  },
  evolve(_state, event) {
    return { isTemplate: event.type === "PageMarkedTemplate" };
  },
};
