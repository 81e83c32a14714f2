// Records an export before its bytes are sent: its caller, and the folder it takes (null: their whole workspace).
import { randomUUID } from "node:crypto";
import type { CommandContext } from "../commands/command-context.ts";
import { deciderCommandHandler } from "../commands/decider-command-handler.ts";
import type { EventStore } from "../event-store/event-store.port.ts";
import type { FolderId } from "../kernel/ids.ts";
import { vaultExportDecider, vaultExportEventSchemas, vaultExportStream } from "./vault-export.decider.ts";

const vaultExportCommands = deciderCommandHandler({
  decider: vaultExportDecider,
  streamOf: vaultExportStream,
  eventSchemas: vaultExportEventSchemas,
});

/** Answers the position of the recorded event. */
export async function recordExport(
  eventStore: EventStore,
  folderId: FolderId | null,
  context: CommandContext,
): Promise<number> {
  const exportId = randomUUID();
  const command = { type: "RecordExport" as const, exportId, userId: context.actorId, folderId };
  const { position } = await vaultExportCommands.handle(eventStore, exportId, command, context);
  return position ?? (await eventStore.headPosition());
}
