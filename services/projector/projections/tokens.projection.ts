// TokenCreated, TokenUsed and TokenRevoked into the tokens read model.
import type { StoredEvent } from "../../../shared/events.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import type { TokenEvent } from "../../../shared/tokens/token.decider.ts";

export async function projectToken({ event, metadata }: StoredEvent<TokenEvent>, models: ReadModels): Promise<void> {
  switch (event.type) {
    case "TokenCreated": {
      const { tokenId, userId, name, scopes, expiresAt, secretHash } = event.data;
      return models.tokens.put({ id: tokenId, userId, name, scopes, expiresAt, secretHash, lastUsedAt: null, createdAt: metadata.occurredAt, revokedAt: null });
    }
    case "TokenUsed":
      return models.tokens.markUsed(event.data.tokenId, event.data.usedAt);
    case "TokenRevoked":
      return models.tokens.markRevoked(event.data.tokenId, metadata.occurredAt);
  }
}
