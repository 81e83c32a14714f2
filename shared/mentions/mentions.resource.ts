// The field a write's answer carries for the mentions of its text that reach nobody (ids only, never why).
import { z } from "zod";

export const unreachableMentionsField = z.array(z.uuid()).meta({
  description:
    "The user ids this write's text mentions who cannot view the page (or are unknown): those mentions notify no one",
});
