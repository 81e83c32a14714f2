// The write side seen from a query node in the split deployment: the command API's internal routes. The
// caller's own credentials are forwarded, so the command API checks them itself and nothing new is trusted.
import { z } from "zod";
import { SESSION_COOKIE } from "../../auth/session-verifier.ts";
import type { Exporter, SeenSession, SessionAccount, UsedToken, WriteSide } from "../../auth/write-side.port.ts";
import { AppError, errorCatalogue, type ErrorCode } from "../../errors/app-error.ts";
import { positionOfToken, positionTokenSchema } from "../../position.ts";

const positionReply = z.object({ position: positionTokenSchema });
/** The answer to a session's sighting: the account it signs in to, besides the position. */
const sightingReply = positionReply.extend({ userId: z.uuid() });
const errorReply = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
const isErrorCode = (code: string): code is ErrorCode => code in errorCatalogue;

export const SIGHTINGS_PATH = "/internal/v1/sightings";
export const HEAD_PATH = "/internal/v1/head";
export const EXPORTS_PATH = "/internal/v1/exports";

export class CommandApiWriteSide implements WriteSide {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async recordSession(session: SeenSession, correlationId: string): Promise<SessionAccount> {
    const reply = await this.call(
      "POST",
      SIGHTINGS_PATH,
      { cookie: `${SESSION_COOKIE}=${encodeURIComponent(session.token)}`, "x-request-id": correlationId },
      sightingReply,
    );
    return { userId: reply.userId, position: positionOfToken(reply.position) };
  }

  async recordTokenUse(token: UsedToken, correlationId: string): Promise<void> {
    await this.call(
      "POST",
      SIGHTINGS_PATH,
      { authorization: `Bearer ${token.secret}`, "x-request-id": correlationId },
      positionReply,
    );
  }

  /** The caller's own credentials go along: the command API authenticates them and records the export as theirs. */
  async recordExport(exporter: Exporter, folderId: string | null, correlationId: string): Promise<number> {
    const { authorization, cookie } = exporter.credentials;
    const headers = {
      ...(authorization === undefined ? {} : { authorization }),
      ...(cookie === undefined ? {} : { cookie }),
      "x-request-id": correlationId,
    };
    const path = folderId === null ? EXPORTS_PATH : `${EXPORTS_PATH}?folderId=${encodeURIComponent(folderId)}`;
    return positionOfToken((await this.call("POST", path, headers, positionReply)).position);
  }

  async headPosition(): Promise<number> {
    return positionOfToken((await this.call("GET", HEAD_PATH, {}, positionReply)).position);
  }

  private async call<Reply>(
    method: string,
    path: string,
    headers: Record<string, string>,
    replySchema: z.ZodType<Reply>,
  ): Promise<Reply> {
    let response: Response;
    try {
      response = await fetch(new URL(path, this.baseUrl), {
        method,
        headers,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch {
      throw new AppError("unavailable", "the write side cannot be reached; retry", { "retry-after": "1" });
    }
    if (response.status >= 400 && response.status < 500) {
      // The caller's own problem (a bad session, an address taken by another account): passed on as it is.
      const refused = errorReply.safeParse(await response.json().catch(() => null));
      if (refused.success && isErrorCode(refused.data.error.code))
        throw new AppError(refused.data.error.code, refused.data.error.message);
    }
    if (!response.ok)
      throw new AppError("unavailable", `the write side answered ${response.status}; retry`, { "retry-after": "1" });
    const body = replySchema.safeParse(await response.json().catch(() => null));
    if (!body.success) throw new AppError("unavailable", "the write side answered something unexpected; retry");
    return body.data;
  }
}
