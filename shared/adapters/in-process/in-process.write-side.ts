// The write side in the same process as the event store (command API, all-in-one): the application functions
// called directly.
import type { Exporter, SeenSession, SessionAccount, UsedToken, WriteSide } from "../../auth/write-side.port.ts";
import type { EventStore } from "../../event-store/event-store.port.ts";
import { recordExport } from "../../exports/record-export.ts";
import { folderIdSchema, tokenIdSchema, userIdSchema } from "../../kernel/ids.ts";
import { recordTokenUse } from "../../tokens/record-token-use.ts";
import { recordSession, type SessionPorts } from "../../users/record-session.ts";

export class InProcessWriteSide implements WriteSide {
  constructor(private readonly ports: SessionPorts & { readonly eventStore: EventStore; readonly clock: () => Date }) {}

  async recordSession(session: SeenSession, correlationId: string): Promise<SessionAccount> {
    const { userId, position } = await recordSession(this.ports, session.claims, {
      correlationId,
      now: this.ports.clock(),
    });
    return { userId, position: position ?? (await this.ports.eventStore.headPosition()) };
  }

  async recordTokenUse(token: UsedToken, correlationId: string): Promise<void> {
    const context = { actorId: userIdSchema.parse(token.userId), correlationId, now: this.ports.clock() };
    await recordTokenUse(this.ports.eventStore, tokenIdSchema.parse(token.tokenId), context);
  }

  recordExport(exporter: Exporter, folderId: string | null, correlationId: string): Promise<number> {
    const context = {
      actorId: userIdSchema.parse(exporter.userId),
      tokenId: exporter.tokenId,
      correlationId,
      now: this.ports.clock(),
    };
    return recordExport(this.ports.eventStore, folderId === null ? null : folderIdSchema.parse(folderId), context);
  }

  headPosition(): Promise<number> {
    return this.ports.eventStore.headPosition();
  }
}
