// Names and titles are shown to other people (lists, mail, exports): a control character or a bidirectional
// override or isolate control in one is refused with 400 wherever a name comes in, and titles that read the
// same are found by the same resolve, whatever zero-width characters they hold.
import { beforeAll, describe, expect, it } from "vitest";
import { importVault, resolve } from "../../support/vault-import.ts";
import type { TestUser } from "../../support/server.ts";
import { serverForFile } from "../../support/server-for-file.ts";

const file = serverForFile();
let ann: TestUser;
let pageId: string;
beforeAll(async () => {
  ann = await file.server.registered("ann");
  pageId = String((await ann.post("/pages", { title: "Names", markdown: "text" })).body.id);
});

const bidi = ["\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069"];

describe("names and titles", () => {
  it("refuse every bidirectional override and isolate control with 400, in pages, folders, icons, tokens and webhooks", async () => {
    for (const control of bidi) {
      const name = `${control}gpj.exe`;
      const attempts = [
        ["POST", "/pages", { title: name }],
        ["PATCH", `/pages/${pageId}`, { title: name }],
        ["POST", `/pages/${pageId}/duplicate`, { title: name }],
        ["POST", "/folders", { name }],
        ["POST", "/pages", { title: "ok", icon: name }],
        ["POST", "/tokens", { name, scopes: ["pages:read"] }],
        ["POST", "/webhooks", { url: "https://hooks.example.com/in", events: ["*"], description: name }],
      ] as const;
      for (const [method, path, body] of attempts) {
        const reply = await ann.call(method, path, { json: body });
        expect(reply.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
        expect(reply.body.error?.code).toBe("validation_failed");
        expect(reply.body.error?.message).toMatch(/bidirectional/);
      }
    }
  });

  it("refuse a bidirectional control in an uploaded image's file name", async () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: "image/png" }), "\u202Egnp.exe");
    form.append("alt", "a");
    const reply = await ann.call("POST", `/pages/${pageId}/images`, { body: form });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.error?.code).toBe("validation_failed");
  });

  it("refuse a session whose name holds a line break or a bidirectional control with 400, recording no account", async () => {
    for (const name of ["Mal\r\nBcc: victim@example.com", "Mal\u0085lory", "\u202Eyrollam"]) {
      const mallory = await file.server.signIn("mallory", { name });
      const reply = await mallory.get("/me");
      expect(reply.status, JSON.stringify(name)).toBe(400);
      expect(reply.body.error?.code).toBe("validation_failed");
      // The same account with a plain name is then registered afresh: nothing was recorded under the bad one.
      const plain = await file.server.signIn("mallory", { id: mallory.id, email: mallory.email, name: "Mallory" });
      const me = await plain.get("/me");
      expect(me.status).toBe(200);
      expect(me.body.name).toBe("Mallory");
    }
  });

  it("report an imported file name holding a bidirectional control and do not use it as a title", async () => {
    const reply = await importVault(ann, [{ path: "\u202Egpj.exe.md", content: "body" }]);
    expect(reply.status, reply.text).toBe(201);
    const errors = (reply.body as { errors: string[] }).errors;
    expect(
      errors.some((error) => /file name was not used: .*bidirectional/.test(error)),
      JSON.stringify(errors),
    ).toBe(true);
    const titles = ((await ann.get("/pages?limit=100")).body.data as Array<{ title: string }>).map(
      (page) => page.title,
    );
    expect(titles.some((title) => title.includes("\u202E"))).toBe(false);
  });
});

describe("resolve", () => {
  it("finds titles that read the same whatever zero-width characters they hold, and asks for them the same way", async () => {
    const bob = await file.server.registered("bob");
    const titles = ["Plan", "Pl\u200Ban", "P\u00ADlan", "\uFEFFPlan\u200D"];
    const ids = new Set<string>();
    for (const title of titles) {
      const created = await bob.post("/pages", { title, markdown: "" });
      expect(created.status, created.text).toBe(201);
      ids.add(String(created.body.id));
    }
    for (const asked of ["Plan", "Pla\u200Cn", "plan"]) {
      const found = await resolve(bob, asked);
      expect(new Set(found.map((page) => page.id)), JSON.stringify(asked)).toEqual(ids);
    }
  });
});
