// A real command side (the all-in-one server on SQLite) for the WriteSide contract, with the adapter under test.
import type { WriteSide } from "../../shared/auth/write-side.port.ts";
import { mintSession } from "../../shared/auth/session-verifier.ts";
import type { WriteSideFixture } from "../contracts/write-side.contract.ts";
import { Client, TEST_SESSION_SECRET, TestServer } from "./server.ts";

export async function writeSideFixture(adapter: (server: TestServer) => WriteSide): Promise<WriteSideFixture> {
  const server = await TestServer.start();
  const { readStore, projector } = server.internals;
  return {
    writeSide: adapter(server),
    views: readStore,
    async reach(position) {
      const deadline = Date.now() + 5_000;
      while ((await readStore.checkpoint()) < position) {
        if (Date.now() > deadline)
          throw new Error(`read models did not reach ${position} (projector at ${projector.checkpoint})`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    session: (claims) => mintSession(TEST_SESSION_SECRET, claims),
    async token(userSession) {
      const created = await new Client(server.url, { cookie: userSession }).post("/tokens", {
        name: "contract",
        scopes: ["pages:read"],
      });
      if (created.status !== 201) throw new Error(`token creation failed: ${created.text}`);
      const me = await new Client(server.url, { cookie: userSession }).get("/me");
      return { secret: String(created.body.token), tokenId: String(created.body.id), userId: String(me.body.id) };
    },
    async erase(userSession, email) {
      const erased = await new Client(server.url, { cookie: userSession }).call("DELETE", "/me", {
        json: { confirm: email },
      });
      if (erased.status !== 204) throw new Error(`erasure failed: ${erased.text}`);
    },
    cleanup: () => server.stop(),
  };
}
