// What the bare ceiling servers share: they listen on the loopback at PORT (any free port when unset), and close
// on SIGTERM, which is how the benchmark stops them.
import type { FastifyInstance } from "fastify";
import { z } from "zod";

export async function listenUntilTerminated(app: FastifyInstance): Promise<void> {
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
}
