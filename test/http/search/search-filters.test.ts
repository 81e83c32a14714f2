import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Client, TestUser } from "../../support/server.ts";
import { serverForFile } from "../../support/server-for-file.ts";
import { addMember, createFolder, createPage, share } from "../../support/workspace-builders.ts";

const file = serverForFile();

const registered = (label: string): Promise<TestUser> => file.server.registered(label);
/** A word no other test uses, so each test sees only its own pages (letters only: one token). */
const word = (): string =>
  `w${randomUUID()
    .replace(/[^a-f]/g, "")
    .slice(0, 10)}x`;
type Hit = { id: string; title: string; snippet: string; updatedAt: string };
type Answer = { status: number; body: unknown; hits: Hit[]; nextCursor: string | null; code?: string };

async function search(client: Client, q: string, filters: Record<string, string> = {}): Promise<Answer> {
  const reply = await client.get(`/search?${new URLSearchParams({ q, ...filters }).toString()}`);
  return {
    status: reply.status,
    body: reply.body,
    hits: (reply.body.data ?? []) as Hit[],
    nextCursor: (reply.body.nextCursor ?? null) as string | null,
    ...(reply.body.error ? { code: reply.body.error.code } : {}),
  };
}
const ids = async (client: Client, q: string, filters: Record<string, string> = {}): Promise<string[]> => {
  const answer = await search(client, q, filters);
  expect(answer.status).toBe(200);
  return answer.hits.map((hit) => hit.id).sort();
};
const sorted = (...values: string[]): string[] => [...values].sort();

describe("search filters", () => {
  it("folderId keeps the pages in that folder and below it, and leaves out the rest", async () => {
    const ann = await registered("ann");
    const w = word();
    const top = await createFolder(ann, { name: "Top" });
    const inner = await createFolder(ann, { name: "Inner", parentId: top });
    const beside = await createFolder(ann, { name: "Beside" });
    const inTop = await createPage(ann, { parentId: top, markdown: w });
    const inInner = await createPage(ann, { parentId: inner, markdown: w });
    const inBeside = await createPage(ann, { parentId: beside, markdown: w });
    const atRoot = await createPage(ann, { markdown: w });
    expect(await ids(ann, w)).toEqual(sorted(inTop, inInner, inBeside, atRoot));
    expect(await ids(ann, w, { folderId: top })).toEqual(sorted(inTop, inInner));
    expect(await ids(ann, w, { folderId: inner })).toEqual([inInner]);
    expect(await ids(ann, w, { folderId: beside })).toEqual([inBeside]);
  });

  it("a folder the caller cannot see answers exactly as an unknown folder, even holding a page shared with them", async () => {
    const owner = await registered("owner");
    const reader = await registered("reader");
    const w = word();
    const hidden = await createFolder(owner, { name: "Hidden" });
    const sharedPage = await createPage(owner, { parentId: hidden, title: `Shared ${w}`, markdown: w });
    await createPage(owner, { parentId: hidden, markdown: `secret ${w}` });
    expect((await share(owner, "page", sharedPage, reader.email, "view")).status).toBe(200);
    expect(await ids(reader, w)).toEqual([sharedPage]);
    const hiddenAnswer = await search(reader, w, { folderId: hidden });
    const unknownAnswer = await search(reader, w, { folderId: randomUUID() });
    expect(hiddenAnswer.status).toBe(200);
    expect(hiddenAnswer.body).toEqual({ data: [], nextCursor: null });
    expect(JSON.stringify(hiddenAnswer.body)).toBe(JSON.stringify(unknownAnswer.body));
    // The owner, who sees the folder, finds both pages in it.
    expect((await ids(owner, w, { folderId: hidden })).length).toBe(2);
  });

  it("ownerId keeps one workspace's pages; a workspace the caller cannot reach answers as an unknown owner", async () => {
    const owner = await registered("owner");
    const member = await registered("member");
    const stranger = await registered("stranger");
    const w = word();
    const theirs = await createPage(owner, { markdown: `team ${w}` });
    const mine = await createPage(member, { markdown: `own ${w}` });
    await createPage(stranger, { markdown: `elsewhere ${w}` });
    expect((await addMember(owner, member.email, "viewer")).status).toBeLessThan(300);
    expect(await ids(member, w)).toEqual(sorted(theirs, mine));
    expect(await ids(member, w, { ownerId: owner.id })).toEqual([theirs]);
    expect(await ids(member, w, { ownerId: member.id })).toEqual([mine]);
    const unreachable = await search(member, w, { ownerId: stranger.id });
    const unknown = await search(member, w, { ownerId: randomUUID() });
    expect(unreachable.body).toEqual({ data: [], nextCursor: null });
    expect(JSON.stringify(unreachable.body)).toBe(JSON.stringify(unknown.body));
  });

  it("updatedAfter and updatedBefore keep the pages last changed strictly between them, in any offset", async () => {
    const ann = await registered("ann");
    const w = word();
    const older = await createPage(ann, { markdown: `first ${w}` });
    const newer = await createPage(ann, { markdown: `second ${w}` });
    const all = (await search(ann, w)).hits;
    const at = (id: string): string => all.find((hit) => hit.id === id)?.updatedAt ?? "";
    expect(Date.parse(at(newer))).toBeGreaterThan(Date.parse(at(older)));
    expect(await ids(ann, w, { updatedAfter: at(older) })).toEqual([newer]);
    expect(await ids(ann, w, { updatedBefore: at(newer) })).toEqual([older]);
    expect(await ids(ann, w, { updatedAfter: at(older), updatedBefore: at(newer) })).toEqual([]);
    const justBefore = new Date(Date.parse(at(older)) - 1).toISOString();
    expect(await ids(ann, w, { updatedAfter: justBefore, updatedBefore: at(newer) })).toEqual([older]);
    // The same instant written two hours east of UTC.
    const east = new Date(Date.parse(at(older)) + 2 * 3_600_000).toISOString().replace("Z", "+02:00");
    expect(await ids(ann, w, { updatedAfter: east })).toEqual([newer]);
    expect(await ids(ann, w, { updatedAfter: "2000-01-01T00:00:00Z" })).toEqual(sorted(older, newer));
  });

  it("in=title leaves out a page that mentions the words only in its markdown", async () => {
    const ann = await registered("ann");
    const w = word();
    const titled = await createPage(ann, { title: `About ${w}`, markdown: `nothing here but ${w}` });
    const bodyOnly = await createPage(ann, { title: "Other", markdown: `a body mentioning ${w}` });
    expect(await ids(ann, w)).toEqual(sorted(titled, bodyOnly));
    const answer = await search(ann, w, { in: "title" });
    expect(answer.hits.map((hit) => hit.id)).toEqual([titled]);
    expect(answer.hits[0]?.snippet).toBe(`About <mark>${w}</mark>`);
    expect(await ids(ann, `${w.slice(0, 6)}*`, { in: "title" })).toEqual([titled]);
    expect(await ids(ann, `"body mentioning ${w}"`, { in: "title" })).toEqual([]);
  });

  it("filters combine with each other and with the words", async () => {
    const owner = await registered("owner");
    const member = await registered("member");
    const w = word();
    const other = word();
    expect((await addMember(owner, member.email, "editor")).status).toBeLessThan(300);
    const folder = await createFolder(owner, { name: "Plans" });
    const early = await createPage(owner, { parentId: folder, title: `Early ${w}` });
    const keep = await createPage(owner, { parentId: folder, title: `Kept ${w} ${other}`, markdown: "text" });
    const bodyOnly = await createPage(owner, { parentId: folder, title: "Body", markdown: `${w} ${other}` });
    const outside = await createPage(owner, { title: `Outside ${w} ${other}` });
    const own = await createPage(member, { title: `Own ${w} ${other}` });
    const hits = (await search(member, w)).hits;
    const earlyAt = hits.find((hit) => hit.id === early)?.updatedAt ?? "";
    expect(await ids(member, w)).toEqual(sorted(early, keep, bodyOnly, outside, own));
    const combined = { folderId: folder, ownerId: owner.id, in: "title", updatedAfter: earlyAt };
    expect(await ids(member, w, combined)).toEqual([keep]);
    expect(await ids(member, `${w} ${other}`, combined)).toEqual([keep]);
    expect(await ids(member, w, { folderId: folder, in: "title" })).toEqual(sorted(early, keep));
    expect(await ids(member, `${w} ${other}`, { ownerId: owner.id })).toEqual(sorted(keep, bodyOnly, outside));
    expect(await ids(member, w, { folderId: folder, ownerId: member.id })).toEqual([]);
  });

  it("a cursor belongs to its filters, and pages through the filtered hits", async () => {
    const ann = await registered("ann");
    const w = word();
    const folder = await createFolder(ann, { name: "Many" });
    const created: string[] = [];
    for (let i = 0; i < 3; i += 1) created.push(await createPage(ann, { parentId: folder, markdown: `${w} ${i}` }));
    await createPage(ann, { markdown: w });
    const first = await search(ann, w, { folderId: folder, limit: "2" });
    expect(first.hits.length).toBe(2);
    const cursor = first.nextCursor ?? "";
    const rest = await search(ann, w, { folderId: folder, limit: "2", cursor });
    expect(rest.nextCursor).toBeNull();
    expect(sorted(...[...first.hits, ...rest.hits].map((hit) => hit.id))).toEqual(sorted(...created));
    expect((await search(ann, w, { cursor })).code).toBe("validation_failed");
    expect((await search(ann, w, { folderId: folder, in: "title", cursor })).code).toBe("validation_failed");
  });

  it("refuses bad filters with 400 validation_failed", async () => {
    const ann = await registered("ann");
    const w = word();
    const bad: Record<string, string>[] = [
      { updatedAfter: "yesterday" },
      { updatedAfter: "2024-13-01T00:00:00Z" },
      { updatedBefore: "2024-01-01T00:00:00" },
      { updatedBefore: "" },
      { in: "body" },
      { folderId: "not-a-uuid" },
      { ownerId: "42" },
    ];
    for (const filters of bad) {
      const answer = await search(ann, w, filters);
      expect(answer.status, JSON.stringify(filters)).toBe(400);
      expect(answer.code, JSON.stringify(filters)).toBe("validation_failed");
    }
  });
});
