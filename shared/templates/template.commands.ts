// Marking a page as a template, or no longer one: edit permission on the page.
import { pageAccess } from "../access/authorize.ts";
import { deciderCommandHandler } from "../commands/decider-command-handler.ts";
import { guardedCommand } from "../commands/guarded-command.ts";
import type { PageId } from "../kernel/ids.ts";
import { templateDecider, templateEventSchemas, templateStream } from "./template.decider.ts";

const templateCommands = deciderCommandHandler({
  decider: templateDecider,
  streamOf: (id: PageId) => templateStream(id),
  eventSchemas: templateEventSchemas,
});

export const setTemplate = guardedCommand(templateCommands, pageAccess("edit"));
