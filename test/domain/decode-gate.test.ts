import { describe, expect, it } from "vitest";
import { AppError } from "../../shared/errors/app-error.ts";
import { DecodeGate } from "../../shared/images/decode-gate.ts";
import { ImageInspector } from "../../shared/images/inspect-image.ts";
import { makeImage } from "../support/images.ts";

/** A task that runs until `finish` is called, recording that it started. */
function heldTask(started: string[], name: string): { run: () => Promise<string>; finish: () => void } {
  let finish = () => undefined as void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    run: async () => {
      started.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

describe("DecodeGate", () => {
  it("runs at most `concurrency` tasks at once and starts the waiting ones in arrival order", async () => {
    const gate = new DecodeGate({ concurrency: 2, queue: 5 });
    const started: string[] = [];
    const tasks = ["a", "b", "c", "d"].map((name) => heldTask(started, name));
    const results = tasks.map((task) => gate.run(task.run, "refuse"));
    await Promise.resolve();
    expect(started).toEqual(["a", "b"]);
    tasks[1]?.finish();
    await expect(results[1]).resolves.toBe("b");
    expect(started).toEqual(["a", "b", "c"]);
    for (const task of tasks) task.finish();
    await expect(Promise.all(results)).resolves.toEqual(["a", "b", "c", "d"]);
  });

  it("refuses an upload with 503 and Retry-After once the queue is full, while an import still waits its turn", async () => {
    const gate = new DecodeGate({ concurrency: 1, queue: 1 });
    const started: string[] = [];
    const running = heldTask(started, "running");
    const queued = heldTask(started, "queued");
    const imported = heldTask(started, "import");
    const first = gate.run(running.run, "refuse");
    const second = gate.run(queued.run, "refuse");
    const refused = await gate.run(async () => "never", "refuse").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: "unavailable",
      status: 503,
      headers: { "retry-after": expect.stringMatching(/^\d+$/) },
    });
    const third = gate.run(imported.run, "wait");
    for (const task of [running, queued, imported]) task.finish();
    await expect(Promise.all([first, second, third])).resolves.toEqual(["running", "queued", "import"]);
    expect(started).toEqual(["running", "queued", "import"]);
  });

  it("frees the turn of a task that fails", async () => {
    const gate = new DecodeGate({ concurrency: 1, queue: 0 });
    await expect(gate.run(() => Promise.reject(new Error("bad image")), "refuse")).rejects.toThrow("bad image");
    await expect(gate.run(async () => "next", "refuse")).resolves.toBe("next");
  });
});

describe("ImageInspector", () => {
  it("refuses a second upload while one is checked and none may wait", async () => {
    const inspector = new ImageInspector({ concurrency: 1, queue: 0 });
    const image = await makeImage("png", 64, 48);
    const first = inspector.inspect(image, "refuse");
    await expect(inspector.inspect(image, "refuse")).rejects.toMatchObject({ code: "unavailable", status: 503 });
    await expect(first).resolves.toMatchObject({ mimeType: "image/png", width: 64, height: 48 });
    await expect(inspector.inspect(image, "refuse")).resolves.toMatchObject({ width: 64 });
  });
});
