// Page commands bound once: the page decider on stream page-<id>; changing a page needs edit on it.
import { pageAccess } from "../access/authorize.ts";
import { deciderCommandHandler } from "../commands/decider-command-handler.ts";
import { guardedCommand } from "../commands/guarded-command.ts";
import type { PageId } from "../kernel/ids.ts";
import { pageDecider, pageEventSchemas, pageStream } from "./page.decider.ts";

export const pageCommands = deciderCommandHandler({ decider: pageDecider, streamOf: (id: PageId) => pageStream(id), eventSchemas: pageEventSchemas });

/** Rename, re-icon, replace the content, delete: edit permission on the page. */
export const editPage = guardedCommand(pageCommands, pageAccess("edit"));
