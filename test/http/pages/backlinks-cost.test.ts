// Backlinks of a page the caller can see cost what the links they can see cost: links from pages they cannot
// see (here a thousand, from another workspace) are left out by the query itself, neither read nor counted.
// Measured as bytes read from the real stores (test/support/read-meter.ts), which does not depend on timing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { meterReads } from "../../support/read-meter.ts";
import { TestServer } from "../../support/server.ts";
import { createPage, share } from "../../support/workspace-builders.ts";

const HIDDEN_LINKERS = 1_000;

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

describe("backlinks", () => {
  it("read nothing of the links from pages the caller cannot see, however many there are", async () => {
    const ann = await server.registered("ann");
    const bob = await server.registered("bob");
    const mallory = await server.registered("mallory");
    const target = await createPage(ann, { title: "Target" });
    const visible = await createPage(ann, { title: "Visible linker", markdown: `see /api/v1/pages/${target}` });
    expect((await share(ann, "page", target, bob.email, "view")).status).toBe(200);
    expect((await share(ann, "page", visible, bob.email, "view")).status).toBe(200);
    const meter = meterReads(server.internals.readStore, server.internals.eventStore);
    const measured = async () => {
      meter.reset();
      const reply = await bob.get(`/pages/${target}/backlinks?limit=100`);
      expect(reply.status).toBe(200);
      return {
        ids: (reply.body.data as Array<{ id: string }>).map((page) => page.id),
        bytes: meter.bytes,
        reads: JSON.stringify([...meter.reads]),
      };
    };
    await measured();
    const before = await measured();
    expect(before.ids).toEqual([visible]);

    const queue = Array.from({ length: HIDDEN_LINKERS }, (_, index) => index);
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let index = queue.pop(); index !== undefined; index = queue.pop()) {
          await createPage(mallory, { title: `linker ${index}`, markdown: `[x](/api/v1/pages/${target})` });
        }
      }),
    );
    // Each creation answered 201 once the read models showed it: its link to the target is recorded.
    const after = await measured();
    expect(after.ids).toEqual([visible]);
    expect(after.bytes - before.bytes, `${after.reads} against ${before.reads}`).toBeLessThan(256);
  }, 120_000);
});
