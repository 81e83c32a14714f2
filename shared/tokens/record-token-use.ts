// An API token's last use, recorded at most once a minute (the token decider decides).
import type { CommandContext } from "../commands/command-context.ts";
import type { EventStore } from "../event-store/event-store.port.ts";
import type { TokenId } from "../kernel/ids.ts";
import { tokenCommands } from "./token.commands.ts";

export async function recordTokenUse(eventStore: EventStore, tokenId: TokenId, context: CommandContext): Promise<void> {
  await tokenCommands.handle(
    eventStore,
    tokenId,
    { type: "RecordTokenUse", tokenId, now: context.now.toISOString() },
    context,
  );
}
