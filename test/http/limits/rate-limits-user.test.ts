// Budgets that do not multiply with credentials: all the tokens and sessions of one user share a budget
// (RATE_LIMIT_USER_FACTOR times one caller's quota), and adding workspace members and granting access spend a
// tight budget of their own, per user, since each answer tells whether an address has an account and each grant
// adds to another user's costs.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type Client } from "../../support/server.ts";
import { addMember, share, unknownAddress } from "../../support/workspace-builders.ts";

const READS = 20;
const SHARING = 4;

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start({
    // Held in the middle of an hour, so no window ends during the test.
    clock: () => new Date("2026-01-01T00:30:30Z"),
    settings: { RATE_LIMIT_READ: `${READS}/1m`, RATE_LIMIT_SHARING: `${SHARING}/1h`, RATE_LIMIT_USER_FACTOR: "2" },
  });
});
afterAll(async () => {
  await server.stop();
});

describe("a user's budget", () => {
  it("is shared by all their tokens: eight tokens read no more than twice one token's quota", async () => {
    const ann = await server.registered("ann");
    const tokens: Client[] = [];
    for (let index = 0; index < 8; index++) tokens.push(await server.tokenClient(ann, ["pages:read"]));
    const statuses: number[] = [];
    for (const token of tokens)
      for (let read = 0; read < READS; read++) statuses.push((await token.get("/pages")).status);
    const allowed = statuses.filter((status) => status === 200).length;
    // Ann's own session spent one read registering; every other read was a token's.
    expect(allowed).toBe(2 * READS - 1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(statuses.length - allowed);
    const refused = await tokens[7]?.get("/pages");
    expect(refused?.status).toBe(429);
    expect(refused?.body.error?.message).toMatch(/too many read requests across all your tokens and sessions/);
    expect(refused?.headers.get("ratelimit-policy")).toBe(`"read-user";q=${2 * READS};w=60`);
    // Another user's budget is untouched.
    expect((await (await server.registered("bea")).get("/pages")).status).toBe(200);
  });
});

describe("sharing", () => {
  it("adding members and granting spend one tight budget per user, whichever token or session asks", async () => {
    const cal = await server.registered("cal");
    const token = await server.tokenClient(cal, ["pages:read", "pages:write"]);
    const pageId = String((await cal.post("/pages", { title: "Shared", markdown: "" })).body.id);
    const answers = [
      await addMember(cal, unknownAddress(), "viewer"),
      await share(cal, "page", pageId, unknownAddress(), "view"),
      await addMember(cal, unknownAddress(), "viewer"),
      await share(token, "page", pageId, unknownAddress(), "view"),
    ];
    expect(answers.map((reply) => reply.status)).toEqual([202, 202, 202, 202]);
    expect(answers[3]?.headers.get("ratelimit")).toMatch(/^"sharing";r=0;t=\d+$/);
    for (const refused of [
      await addMember(cal, unknownAddress(), "viewer"),
      await share(token, "page", pageId, unknownAddress(), "view"),
    ]) {
      expect(refused.status).toBe(429);
      expect(refused.body.error?.code).toBe("rate_limited");
      expect(refused.headers.get("ratelimit-policy")).toBe(`"sharing";q=${SHARING};w=3600`);
      expect(Number(refused.headers.get("retry-after"))).toBe(29 * 60 + 30);
    }
    // Other writes spend their own budget.
    expect((await cal.post("/folders", { name: `f-${randomUUID().slice(0, 8)}` })).status).toBe(201);
  });
});
