// Folder commands bound once: the folder decider on stream folder-<id>.
import { deciderCommandHandler } from "../commands/decider-command-handler.ts";
import type { FolderId } from "../kernel/ids.ts";
import { folderDecider, folderEventSchemas, folderStream } from "./folder.decider.ts";

export const folderCommands = deciderCommandHandler({ decider: folderDecider, streamOf: (id: FolderId) => folderStream(id), eventSchemas: folderEventSchemas });
