// Shutdown is graceful but bounded: a request in flight may finish, but a connection that stays open past the
// grace period (a client that never reads its answer, a handler that never ends) is cut, so closing ends.
import pino from "pino";
import { expect, it } from "vitest";
import { closeApp, createApp } from "../../../shared/http/create-app.ts";

it("finishes a request in flight, then cuts what is still open after the grace period", async () => {
  const app = createApp({ logger: pino({ level: "silent" }), bodyLimit: 1024 });
  let finishQuick: () => void = () => undefined;
  app.get("/quick", async () => {
    await new Promise<void>((resolve) => (finishQuick = resolve));
    return { done: true };
  });
  app.get("/never", () => new Promise(() => undefined));
  const url = await app.listen({ port: 0, host: "127.0.0.1" });
  const stuck = fetch(`${url}/never`).then(
    () => "answered",
    () => "cut",
  );
  const quick = fetch(`${url}/quick`).then((reply) => reply.json());
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = Date.now();
  const closing = closeApp(app, 500);
  finishQuick();
  expect(await quick).toEqual({ done: true });
  await closing;
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(await stuck).toBe("cut");
});
