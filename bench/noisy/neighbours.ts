// The noisy neighbours of the benchmark: for each shared resource, what one caller does at its worst within the
// limits (the attacker) and the ordinary request of another caller timed beside it (the victim). `prepare` builds
// both through the public API before anything is timed; `attack` and `victim` are called in loops by the runner.
import { randomBytes, randomUUID } from "node:crypto";
import { strToU8, zipSync } from "fflate";
import { callerOf, jsonHeaders, type Caller } from "../worst/fixture/calls.ts";

interface Prepared {
  /** One request of the attacker at its worst: its status. */
  readonly attack: () => Promise<number>;
  /** Concurrent attacker loops. */
  readonly attackers: number;
  /** One ordinary request of the victim: its status. */
  readonly victim: () => Promise<number>;
  /** Between two of the victim's requests, when its own budget asks for more than the runner's default pause. */
  readonly victimPauseMs?: number;
}

export interface Neighbour {
  readonly resource: string;
  readonly attacker: string;
  readonly victim: string;
  readonly prepare: (context: NeighbourContext) => Promise<Prepared>;
}

export interface NeighbourContext {
  readonly url: string;
  readonly secret: string;
  /** The seeded owner of the large workspace (search's row), signed in. */
  readonly searcher: Caller;
  readonly quick: boolean;
}

const api = (context: NeighbourContext, path: string): string => `${context.url}/api/v1${path}`;

async function send(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array<ArrayBuffer> } = {},
): Promise<{ status: number; text: string; headers: Headers }> {
  const reply = await fetch(url, {
    method: init.method ?? "GET",
    headers: init.headers ?? {},
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  return { status: reply.status, text: await reply.text(), headers: reply.headers };
}
const statusOf = async (url: string, init: Parameters<typeof send>[1] = {}): Promise<number> =>
  (await send(url, init)).status;

async function json(
  context: NeighbourContext,
  caller: Caller,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const reply = await send(api(context, path), {
    method,
    headers: { ...jsonHeaders(caller), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (reply.status >= 400) throw new Error(`${method} ${path} answered ${reply.status}: ${reply.text.slice(0, 200)}`);
  return reply.text ? (JSON.parse(reply.text) as Record<string, unknown>) : {};
}
const stringField = (body: Record<string, unknown>, name: string): string => {
  const value = body[name];
  if (typeof value !== "string") throw new Error(`no ${name} in ${JSON.stringify(body).slice(0, 200)}`);
  return value;
};

async function pageWithVersions(
  context: NeighbourContext,
  caller: Caller,
  versions: readonly string[],
): Promise<{ pageId: string; positions: string[] }> {
  const pageId = stringField(
    await json(context, caller, "POST", "/pages", {
      title: `Versions ${randomUUID().slice(0, 8)}`,
      markdown: versions[0] ?? "",
    }),
    "id",
  );
  for (const markdown of versions.slice(1)) {
    // Answered with the markdown itself, not JSON.
    const replaced = await send(api(context, `/pages/${pageId}/content`), {
      method: "PUT",
      headers: { ...jsonHeaders(caller), "if-match": "*" },
      body: JSON.stringify({ markdown }),
    });
    if (replaced.status >= 400)
      throw new Error(`PUT /pages/${pageId}/content answered ${replaced.status}: ${replaced.text.slice(0, 200)}`);
  }
  const history = await json(context, caller, "GET", `/pages/${pageId}/history?order=asc`);
  const positions = (history.data as Array<{ position: string }>).map((item) => item.position);
  return { pageId, positions };
}

/** About 478 KB of lines no other version shares. */
const unrelatedLines = (): string => Array.from({ length: 20_000 }, () => randomBytes(11).toString("hex")).join("\n");

const shareLinkPath = async (context: NeighbourContext, caller: Caller, pageId: string): Promise<string> =>
  new URL(
    stringField(await json(context, caller, "POST", `/pages/${pageId}/share-links`, {}), "url"),
    "http://bench.invalid",
  ).pathname;

/** A note of the import rows: a paragraph of prose with a link to the next note. */
const note = (folder: string, index: number, count: number) => ({
  path: `${folder}/Note ${index}.md`,
  content: `# Note ${index}\n\n${"Plans, owners and risks of the quarter, with the pages where the details live. ".repeat(60)}[[Note ${(index + 1) % count}]]\n`,
});

/** The costliest search the limits allow over the seeded workspace: 2 prefixes, 3 phrases of 8 words, 16 terms. */
const WORST_SEARCH =
  'th* an* "the quarterly plan covers hiring the storage migration" "each team lists its goals owners and risks" ' +
  '"decisions are recorded with their date and the" the and its with their people who made them links pages';

const attachmentForm = (boundary: string, bytes: Uint8Array): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="upload.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  );

const mcpHeaders = (caller: Caller) => ({
  authorization: `Bearer ${caller.token}`,
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
});

/** Every shared resource one caller could take from the others, a row each. */
export const NEIGHBOURS: readonly Neighbour[] = [
  {
    resource: "worker pool via diffs",
    attacker:
      "one user, 8 concurrent diffs of a 478 KB page between 3 unrelated versions (each 422 diff_too_large or 429)",
    victim: "another user's diff of a 2-line page",
    async prepare(context) {
      const mallory = await callerOf(api(context, ""), context.secret, "mallory");
      const alice = await callerOf(api(context, ""), context.secret, "alice");
      const large = await pageWithVersions(context, mallory, [unrelatedLines(), unrelatedLines(), unrelatedLines()]);
      const small = await pageWithVersions(context, alice, ["one\ntwo\n", "one\n2\n"]);
      return {
        attackers: 8,
        attack: () =>
          statusOf(api(context, `/pages/${large.pageId}/diff?from=${large.positions[0]}&to=${large.positions[1]}`), {
            headers: { cookie: mallory.cookie },
          }),
        victim: () =>
          statusOf(api(context, `/pages/${small.pageId}/diff?from=${small.positions[0]}`), {
            headers: { cookie: alice.cookie },
          }),
      };
    },
  },
  {
    resource: "share-page renders",
    attacker: "an anonymous reader, 4 concurrent GETs of 4 share links to pages of [x]×40,000 and a different suffix",
    victim: "another owner's ordinary share page",
    async prepare(context) {
      const mallory = await callerOf(api(context, ""), context.secret, "storms");
      const owner = await callerOf(api(context, ""), context.secret, "publisher");
      const storms: string[] = [];
      for (const suffix of ["a", "b", "c", "d"]) {
        const pageId = stringField(
          await json(context, mallory, "POST", "/pages", {
            title: `Storm ${suffix}`,
            markdown: `${"[x]".repeat(40_000)}${suffix}`,
          }),
          "id",
        );
        storms.push(await shareLinkPath(context, mallory, pageId));
      }
      const ordinary = await shareLinkPath(
        context,
        owner,
        stringField(
          await json(context, owner, "POST", "/pages", {
            title: "Minutes",
            markdown: "# Minutes\n\nWe agreed on **the plan**.",
          }),
          "id",
        ),
      );
      let next = 0;
      return {
        attackers: 4,
        attack: () => statusOf(`${context.url}${storms[next++ % storms.length] ?? ""}`),
        victim: () => statusOf(`${context.url}${ordinary}`),
      };
    },
  },
  {
    resource: "import and export",
    attacker: "one user exporting a 1,000-note workspace and importing 200 notes, both in loops",
    victim: "another user's import of 2 notes, then their export, once a second (within their own import budget)",
    async prepare(context) {
      const mallory = await callerOf(api(context, ""), context.secret, "porter");
      const bob = await callerOf(api(context, ""), context.secret, "bob");
      await json(context, mallory, "POST", "/imports/obsidian", {
        files: Array.from({ length: 1_000 }, (_, i) => note("Big", i, 1_000)),
      });
      let round = 0;
      return {
        attackers: 2,
        // RATE_LIMIT_IMPORT allows 60 a minute: a victim importing every 50 ms would be refused by its own budget.
        victimPauseMs: 1_100,
        attack: () =>
          round++ % 2 === 0
            ? statusOf(api(context, "/exports/obsidian"), { headers: { cookie: mallory.cookie } })
            : statusOf(api(context, "/imports/obsidian"), {
                method: "POST",
                headers: jsonHeaders(mallory),
                body: JSON.stringify({ files: Array.from({ length: 200 }, (_, i) => note(`Again ${round}`, i, 200)) }),
              }),
        async victim() {
          const imported = await statusOf(api(context, "/imports/obsidian"), {
            method: "POST",
            headers: jsonHeaders(bob),
            body: JSON.stringify({ files: [note("Small", 0, 2), note("Small", 1, 2)] }),
          });
          const exported = await statusOf(api(context, "/exports/obsidian"), { headers: { cookie: bob.cookie } });
          return Math.max(imported, exported);
        },
      };
    },
  },
  {
    resource: "search (the event loop)",
    attacker:
      "one token, 4 concurrent searches of the costliest allowed query (2 prefixes, 3 phrases, 16 terms) over its 10,000-page workspace",
    victim: "another user's one-word search of their own pages",
    async prepare(context) {
      const carol = await callerOf(api(context, ""), context.secret, "carol");
      for (let i = 0; i < 20; i += 1)
        await json(context, carol, "POST", "/pages", {
          title: `Carol's note ${i}`,
          markdown: "The zeppelin schedule and the hangar.",
        });
      return {
        attackers: 4,
        attack: () =>
          statusOf(api(context, `/search?q=${encodeURIComponent(WORST_SEARCH)}&limit=50`), {
            headers: { authorization: `Bearer ${context.searcher.token}` },
          }),
        victim: () => statusOf(api(context, "/search?q=zeppelin&limit=20"), { headers: { cookie: carol.cookie } }),
      };
    },
  },
  {
    resource: "/mcp messages",
    attacker: "one token, 16 concurrent clients each sending JSON-RPC batches of 100 tools/list to /mcp in its session",
    victim: "another user's GET /pages?limit=50",
    async prepare(context) {
      const agent = await callerOf(api(context, ""), context.secret, "agent");
      const dave = await callerOf(api(context, ""), context.secret, "dave");
      for (let i = 0; i < 50; i += 1)
        await json(context, dave, "POST", "/pages", { title: `Dave's page ${i}`, markdown: "notes" });
      const initialize = await send(`${context.url}/mcp`, {
        method: "POST",
        headers: mcpHeaders(agent),
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "flood", version: "1" } },
        }),
      });
      const session = {
        ...mcpHeaders(agent),
        "mcp-session-id": initialize.headers.get("mcp-session-id") ?? "",
        "mcp-protocol-version": "2025-11-25",
      };
      await send(`${context.url}/mcp`, {
        method: "POST",
        headers: session,
        body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      });
      const batch = JSON.stringify(
        Array.from({ length: 100 }, (_, id) => ({ jsonrpc: "2.0", id: id + 2, method: "tools/list" })),
      );
      return {
        attackers: 16,
        attack: () => statusOf(`${context.url}/mcp`, { method: "POST", headers: session, body: batch }),
        victim: () => statusOf(api(context, "/pages?limit=50"), { headers: { cookie: dave.cookie } }),
      };
    },
  },
  {
    resource: "disk via imports",
    attacker: "one user importing, in a loop, a zip of 30 notes that all link one large file compressing 75×",
    victim: "another user's upload of a 1 MB attachment",
    async prepare(context) {
      const mallory = await callerOf(api(context, ""), context.secret, "filler");
      const erin = await callerOf(api(context, ""), context.secret, "erin");
      const fileBytes = (context.quick ? 10 : 40) * 1024 * 1024;
      // Random bytes repeated: deflate finds the repeats, about 75× smaller.
      const block = randomBytes(Math.ceil(fileBytes / 75));
      const large = new Uint8Array(fileBytes);
      for (let at = 0; at < fileBytes; at += block.length)
        large.set(block.subarray(0, Math.min(block.length, fileBytes - at)), at);
      const files: Record<string, Uint8Array> = { "Files/large.bin": large };
      for (let i = 0; i < 30; i += 1) files[`Notes/Note ${i}.md`] = strToU8(`# Note ${i}\n\nSee ![[large.bin]]\n`);
      const zip = Uint8Array.from(zipSync(files, { level: 6 }));
      const pageId = stringField(
        await json(context, erin, "POST", "/pages", { title: "Erin's files", markdown: "files" }),
        "id",
      );
      const upload = Uint8Array.from(randomBytes(1024 * 1024));
      return {
        attackers: 2,
        attack: () =>
          statusOf(api(context, "/imports/obsidian"), {
            method: "POST",
            headers: { cookie: mallory.cookie, "content-type": "application/zip" },
            body: zip,
          }),
        victim: () => {
          const boundary = `noisy${randomUUID().replaceAll("-", "")}`;
          return statusOf(api(context, `/pages/${pageId}/attachments`), {
            method: "POST",
            headers: { cookie: erin.cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
            body: attachmentForm(boundary, upload),
          });
        },
      };
    },
  },
];
