// A taken port: the error names PORT, the setting that chooses another.
import { createServer } from "node:net";
import { once } from "node:events";
import Fastify from "fastify";
import { expect, it } from "vitest";
import { listenOn } from "../../../shared/http/listen.ts";

it("says how to choose another port when the port is taken", async () => {
  const holder = createServer().listen(0, "127.0.0.1");
  await once(holder, "listening");
  const address = holder.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  const app = Fastify();
  try {
    await expect(listenOn(app, address.port, "127.0.0.1")).rejects.toThrow(/EADDRINUSE.*PORT=/);
  } finally {
    await app.close();
    holder.close();
  }
});
