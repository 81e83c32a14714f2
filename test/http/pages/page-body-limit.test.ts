// A page the API accepts is never refused by a body limit first: the routes that carry a page's markdown take
// the page limit in its worst encoding, on the all-in-one server and through the nginx gateway. The body here is
// CJK sent as JSON with every character escaped (\uXXXX, as Python's json.dumps writes it by default): 250,000
// characters, within the size of one change once sealed (750 KB in UTF-8, about 1 MB sealed), weigh about 1.5 MB
// on the wire, above the default BODY_LIMIT_BYTES.
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARKDOWN_MAX_CHARS } from "../../../shared/pages/page.fields.ts";
import { PAGE_BODY_LIMIT_BYTES } from "../../../services/command-api/routes/fields.ts";
import { MAX_APPEND_BYTES } from "../../../shared/event-store/append-size.ts";
import { gatewayUnavailable, startGateway, type Gateway } from "../../support/gateway.ts";
import { Client, TestServer } from "../../support/server.ts";

const cjk = (characters: number) => "漢".repeat(characters);
/** JSON as a client that escapes everything outside ASCII writes it. */
const asciiJson = (value: unknown) =>
  JSON.stringify(value).replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);

async function sendJson(
  client: Client,
  method: string,
  path: string,
  value: unknown,
  headers: Record<string, string> = {},
) {
  return client.call(method, path, {
    body: asciiJson(value),
    headers: { "content-type": "application/json", ...headers },
  });
}

/** What a user sees of the page limit on one server (the all-in-one server, or the gateway in front of it). */
function pageLimitCases(base: () => { client: Client }) {
  it("creates a 250,000-character CJK page sent as escaped JSON (1.5 MB), and reads it back whole", async () => {
    const { client } = base();
    const markdown = cjk(250_000);
    const body = asciiJson({ title: "大きなページ", markdown });
    expect(Buffer.byteLength(body)).toBeGreaterThan(1_400_000);
    const created = await sendJson(client, "POST", "/pages", { title: "大きなページ", markdown });
    expect(created.status, created.text.slice(0, 300)).toBe(201);
    const content = await client.get(`/pages/${String(created.body.id)}/content`);
    expect(content.status).toBe(200);
    expect(content.text).toContain(markdown);
  });

  it("replaces and appends to a page's content with large escaped JSON bodies", async () => {
    const { client } = base();
    const created = await client.post("/pages", { title: "Grows" });
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    const etag = (await client.get(`/pages/${id}/content`)).headers.get("etag") ?? "";
    const replaced = await sendJson(
      client,
      "PUT",
      `/pages/${id}/content`,
      { markdown: cjk(150_000) },
      { "if-match": etag },
    );
    expect(replaced.status, replaced.text.slice(0, 300)).toBe(200);
    const appended = await sendJson(client, "PATCH", `/pages/${id}/content`, { append: cjk(100_000) });
    expect(appended.status, appended.text.slice(0, 300)).toBe(200);
    expect((await client.get(`/pages/${id}/content`)).text).toContain(cjk(250_000));
  });

  it("answers a 400,000-character CJK page (1.2 MB of UTF-8) with the size of one change, not the body limit", async () => {
    const { client } = base();
    const refused = await sendJson(client, "POST", "/pages", { title: "Too large", markdown: cjk(400_000) });
    expect(refused.status).toBe(413);
    expect(refused.body.error?.code).toBe("payload_too_large");
    expect(refused.body.error?.message).toContain(`at most ${MAX_APPEND_BYTES} bytes`);
  });

  it("still refuses an ordinary request over BODY_LIMIT_BYTES", async () => {
    const { client } = base();
    const refused = await client.post("/folders", { name: "x", padding: "y".repeat(2 * 1024 * 1024) });
    expect(refused.status).toBe(413);
    expect(refused.body.error?.code).toBe("payload_too_large");
  });
}

let server: TestServer;
let owner: Client;
beforeAll(async () => {
  server = await TestServer.start();
  owner = await server.registered("ann");
});
afterAll(async () => {
  await server?.stop();
});

describe("the page routes' body limit on the all-in-one server", () => {
  pageLimitCases(() => ({ client: owner }));
});

const unavailable = gatewayUnavailable();
if (unavailable) console.warn(`page body limit gateway tests skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)("the page routes' body limit through the nginx gateway", () => {
  let gateway: Gateway;
  let client: Client;
  beforeAll(async () => {
    gateway = await startGateway({ commandApi: server.url, queryApis: [server.url] });
    client = new Client(gateway.url, owner.credentials);
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  pageLimitCases(() => ({ client }));

  it("takes on the page routes at least the page limit in its worst encoding", async () => {
    const template = await readFile("deploy/nginx/gateway.conf.template", "utf8");
    const limits = [...template.matchAll(/location[^{]*\/api\/v1\/pages[^{]*\{\s*client_max_body_size (\d+)m;/g)].map(
      (match) => Number(match[1]) * 1024 * 1024,
    );
    expect(limits).toHaveLength(2);
    for (const limit of limits) expect(limit).toBeGreaterThanOrEqual(PAGE_BODY_LIMIT_BYTES);
    expect(PAGE_BODY_LIMIT_BYTES).toBeGreaterThanOrEqual(MARKDOWN_MAX_CHARS * 6);
  });
});
