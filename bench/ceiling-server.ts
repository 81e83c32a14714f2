// The HTTP ceiling on this machine: a bare fastify route answering a constant JSON body, run as its own process.
import Fastify from "fastify";
import { listenUntilTerminated } from "./bare-server.ts";

const app = Fastify({ logger: false });
const body = { data: [], nextCursor: null };
app.get("/constant", async () => body);
await listenUntilTerminated(app);
