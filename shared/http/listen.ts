// Starts listening, and says what to do when the port is taken: EADDRINUSE alone does not tell a newcomer
// that PORT chooses another.
import type { FastifyInstance } from "fastify";
import { z } from "zod";

const addressInUse = z.object({ code: z.literal("EADDRINUSE") });

export async function listenOn(app: Pick<FastifyInstance, "listen">, port: number, host: string): Promise<string> {
  try {
    return await app.listen({ port, host });
  } catch (error) {
    if (addressInUse.safeParse(error).success) {
      throw new Error(
        `port ${port} on ${host} is already in use (EADDRINUSE): stop what holds it, or choose another port with PORT (e.g. PORT=3100)`,
        { cause: error },
      );
    }
    throw error;
  }
}
