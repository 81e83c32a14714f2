// An API token as its creation answers it: from the read models once they show it; meanwhile the record as the
// write created it. The secret is never stored, so the route adds it to either (`.map`).
import { AppError } from "../../../shared/errors/app-error.ts";
import type { TokenId } from "../../../shared/kernel/ids.ts";
import { toTokenResource } from "../../../shared/tokens/token.resource.ts";
import { answerOf, type Answer } from "./answer.ts";

type TokenResource = ReturnType<typeof toTokenResource>;

export const tokenAnswer = (tokenId: TokenId, created: TokenResource): Answer<TokenResource> =>
  answerOf(
    async (ports) => {
      const token = await ports.views.tokens.get(tokenId);
      if (!token) throw new AppError("internal", "token was not recorded");
      return { body: toTokenResource(token) };
    },
    async () => ({ body: created }),
  );
