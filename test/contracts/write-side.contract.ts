// The WriteSide contract: what a process that never writes may ask of the write side. Every adapter (in
// process, the command API over HTTP) must pass these; the factory gives a real command side to ask.
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SessionClaims } from "../../shared/auth/session-verifier.ts";
import type { WriteSide } from "../../shared/auth/write-side.port.ts";
import type { ReadModels } from "../../shared/read-store/read-store.port.ts";

export interface WriteSideFixture {
  readonly writeSide: WriteSide;
  /** The command side's read models, to observe what the write side recorded. */
  readonly views: ReadModels;
  /** Waits until the command side's read models reach `position`. */
  reach(position: number): Promise<void>;
  /** A session cookie value the command side accepts for these claims. */
  session(claims: Omit<SessionClaims, "exp">): Promise<string>;
  /** An API token of a registered user, made through the command side. */
  token(userSession: string): Promise<{ secret: string; tokenId: string; userId: string }>;
  /** Erases the session's account through the command side (DELETE /me). */
  erase(userSession: string, email: string): Promise<void>;
  cleanup(): Promise<void>;
}

export function writeSideContract(name: string, factory: () => Promise<WriteSideFixture>): void {
  describe(`WriteSide contract: ${name}`, () => {
    let fixture: WriteSideFixture;
    beforeEach(async () => {
      fixture = await factory();
    });
    afterEach(async () => {
      await fixture.cleanup();
    });
    const claimsOf = (label: string) => ({
      sub: randomUUID(),
      email: `${label}-${randomUUID().slice(0, 8)}@example.com`,
      name: label,
    });
    const seen = async (claims: Omit<SessionClaims, "exp">) => {
      const session = {
        token: await fixture.session(claims),
        claims: { ...claims, exp: Math.floor(Date.now() / 1000) + 3600 },
      };
      return (await fixture.writeSide.recordSession(session, randomUUID())).position;
    };

    it("registers a session's user and answers a position the read models then show them at", async () => {
      const claims = claimsOf("first");
      const position = await seen(claims);
      expect(position).toBeLessThanOrEqual(await fixture.writeSide.headPosition());
      await fixture.reach(position);
      expect(await fixture.views.users.get(claims.sub)).toMatchObject({
        id: claims.sub,
        email: claims.email,
        name: claims.name,
      });
    });

    it("keeps one account per user across sightings and follows a changed name", async () => {
      const claims = claimsOf("again");
      await fixture.reach(await seen(claims));
      await fixture.reach(await seen({ ...claims, name: "Renamed" }));
      expect((await fixture.views.users.get(claims.sub))?.name).toBe("Renamed");
      expect((await fixture.views.users.getByEmail(claims.email))?.id).toBe(claims.sub);
    });

    it("answers the account a session signs in to: its subject's id, and a new id once that account was erased", async () => {
      const claims = claimsOf("returning");
      const first = await fixture.writeSide.recordSession(
        {
          token: await fixture.session(claims),
          claims: { ...claims, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 3600 },
        },
        randomUUID(),
      );
      expect(first.userId).toBe(claims.sub);
      await fixture.reach(first.position);
      await fixture.erase(await fixture.session(claims), claims.email);
      await new Promise((resolve) => setTimeout(resolve, 1_100)); // a session's issue time counts whole seconds
      const afresh = await fixture.writeSide.recordSession(
        {
          token: await fixture.session(claims),
          claims: { ...claims, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 3600 },
        },
        randomUUID(),
      );
      expect(afresh.userId).not.toBe(claims.sub);
      await fixture.reach(afresh.position);
      expect(await fixture.views.users.get(afresh.userId)).toMatchObject({
        id: afresh.userId,
        email: claims.email,
        name: claims.name,
      });
      expect(await fixture.views.users.get(claims.sub)).toBeNull();
    });

    it("refuses a second account for an address that already has one", async () => {
      const claims = claimsOf("taken");
      await fixture.reach(await seen(claims));
      await expect(seen({ ...claims, sub: randomUUID() })).rejects.toMatchObject({ code: "conflict" });
    });

    it("records an API token's use", async () => {
      const claims = claimsOf("bot-owner");
      await fixture.reach(await seen(claims));
      const token = await fixture.token(await fixture.session(claims));
      await fixture.writeSide.recordTokenUse(token, randomUUID());
      await fixture.reach(await fixture.writeSide.headPosition());
      expect((await fixture.views.tokens.get(token.tokenId))?.lastUsedAt).toEqual(expect.any(String));
    });

    it("records an export as its caller's, naming the token it was made through", async () => {
      const claims = claimsOf("exporter");
      await fixture.reach(await seen(claims));
      const token = await fixture.token(await fixture.session(claims));
      const exporter = {
        userId: token.userId,
        tokenId: token.tokenId,
        credentials: { authorization: `Bearer ${token.secret}` },
      };
      await fixture.reach(await fixture.writeSide.recordExport(exporter, null, randomUUID()));
      const query = { actorId: null, after: null, before: null, from: null, limit: 10 };
      const trail = await fixture.views.audit.list({ ...query, workspaceId: token.userId, kind: "export" });
      expect(trail).toMatchObject([
        { actorId: token.userId, tokenId: token.tokenId, targetType: "workspace", targetId: token.userId },
      ]);
    });
  });
}
