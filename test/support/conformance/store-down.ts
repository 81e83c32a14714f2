// /readyz with the read store out of reach: 503 `unavailable`, while /healthz still answers. The read store is
// closed under the running server, as a database gone away leaves it: the server cannot serve from it again, so
// this is the last thing asked of it before it stops.
import type { TestServer } from "../server.ts";
import { expectAnswer, read, type Prober } from "./probe.ts";

export async function readinessWithTheReadStoreDown({
  server,
  prober,
}: {
  server: TestServer;
  prober: Prober;
}): Promise<void> {
  expectAnswer(await prober.send("GET", "/readyz"), 200, "getReadiness");
  await server.internals.readStore.close();
  const unready = expectAnswer(await prober.send("GET", "/readyz"), 503, "getReadiness with the read store down");
  if (read(unready, "status") !== "unavailable") throw new Error(`getReadiness: ${unready.text}`);
  expectAnswer(await prober.send("GET", "/healthz"), 200, "getHealth with the read store down");
}
