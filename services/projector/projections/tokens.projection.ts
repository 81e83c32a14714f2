// TokenCreated, TokenUsed and TokenRevoked into the tokens read model.
import type { StoredEvent } from "../../../shared/events.ts";
import type { ProjectionWriters } from "../../../shared/read-store/read-store.port.ts";
import type { TokenEvent } from "../../../shared/tokens/token.decider.ts";

export async function projectToken<Tx>(
  { event, metadata }: StoredEvent<TokenEvent>,
  writers: ProjectionWriters<Tx>,
  tx: Tx,
): Promise<void> {
  switch (event.type) {
    case "TokenCreated": {
      const { tokenId, userId, name, scopes, expiresAt, secretHash } = event.data;
      return writers.tokens.put(tx, {
        id: tokenId,
        userId,
        name,
        scopes,
        expiresAt,
        secretHash,
        lastUsedAt: null,
        createdAt: metadata.occurredAt,
        revokedAt: null,
      });
    }
    case "TokenUsed":
      return writers.tokens.markUsed(tx, event.data.tokenId, event.data.usedAt);
    case "TokenRevoked":
      return writers.tokens.markRevoked(tx, event.data.tokenId, metadata.occurredAt);
  }
}
