// The same-bytes ceiling: a bare fastify route per measured route, answering a constant body of the bytes,
// content type and status that route answered once (read from the JSON file named by the first argument).
import { readFileSync } from "node:fs";
import Fastify, { type FastifyReply } from "fastify";
import { z } from "zod";
import { listenUntilTerminated } from "./bare-server.ts";

const bodiesSchema = z.record(
  z.string(),
  z.object({ status: z.number().int(), contentType: z.string(), base64: z.string() }),
);
const bodies = bodiesSchema.parse(JSON.parse(readFileSync(z.string().parse(process.argv[2]), "utf8")));

const app = Fastify({ logger: false });
// Any body a measured POST sends is read and dropped, as the real route reads it.
app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
for (const [name, answer] of Object.entries(bodies)) {
  const bytes = Buffer.from(answer.base64, "base64");
  const handler = async (_request: unknown, reply: FastifyReply) =>
    reply.code(answer.status).type(answer.contentType).send(bytes);
  app.get(`/same/${name}`, handler);
  app.post(`/same/${name}`, handler);
}
app.get("/ready", async () => ({ ok: true }));
await listenUntilTerminated(app);
