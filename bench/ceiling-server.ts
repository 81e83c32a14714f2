// The HTTP ceiling on this machine: a bare fastify route answering a constant JSON body, run as its own process.
import Fastify from "fastify";
import { z } from "zod";

const app = Fastify({ logger: false });
const body = { data: [], nextCursor: null };
app.get("/constant", async () => body);
await app.listen({
  port: z.coerce
    .number()
    .int()
    .min(0)
    .parse(process.env.PORT ?? "0"),
  host: "127.0.0.1",
});
process.on("SIGTERM", () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
