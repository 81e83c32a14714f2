// Part of the read-store contract (read-store.contract.ts): a workspace's audit entries listed newest first (by
// instant, then position), filtered by actor, kind and instants, resumed below an entry; a replayed entry stays
// one; a target's first entry names its workspace.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import type { AuditQuery, AuditRecord } from "../../../shared/audit/audit.view.ts";
import { at, type ContractStores } from "./stores.ts";

function entry(workspaceId: string, overrides: Partial<AuditRecord> = {}): AuditRecord {
  const when = at();
  return {
    id: randomUUID(),
    workspaceId,
    kind: "group.created",
    actorId: workspaceId,
    tokenId: null,
    appId: null,
    at: when.updatedAt,
    targetType: "group",
    targetId: randomUUID(),
    detail: {},
    position: when.updatedPosition,
    ...overrides,
  };
}

const everything = (workspaceId: string): AuditQuery => ({
  workspaceId,
  actorId: null,
  kind: null,
  after: null,
  before: null,
  from: null,
  limit: 100,
});

export function auditCases<Tx>(s: ContractStores<Tx>): void {
  const { batch, w } = s;
  const ids = (records: AuditRecord[]) => records.map((record) => record.id);

  it("lists a workspace's audit entries newest first, filtered by actor, kind and instants, and resumes below an entry", async () => {
    const [owner, admin, other] = [randomUUID(), randomUUID(), randomUUID()];
    const tokenId = randomUUID();
    const first = entry(owner, {
      kind: "token.created",
      targetType: "token",
      targetId: tokenId,
      detail: { scopes: ["pages:write"], expiresAt: null },
    });
    const second = entry(owner, { actorId: admin, kind: "member.added", detail: { role: "editor" } });
    const third = entry(owner, { kind: "write", tokenId, detail: { change: "PageCreated" } });
    const fourth = entry(owner, { actorId: admin });
    // Recorded later in the log with an earlier instant (another node's clock): listed by its instant.
    const early = { ...entry(owner), at: second.at, position: at().updatedPosition };
    const elsewhere = entry(other);
    await batch(async (tx) => {
      for (const record of [first, second, third, fourth, early, elsewhere]) await w().audit.put(tx, record);
      await w().audit.put(tx, third);
    });
    const all = await s.reader.audit.list(everything(owner));
    expect(ids(all)).toEqual([fourth.id, third.id, early.id, second.id, first.id]);
    expect(all[1]).toEqual(third);
    expect(all[4]).toEqual(first);

    const list = (query: Partial<AuditQuery>) => s.reader.audit.list({ ...everything(owner), ...query });
    expect(ids(await list({ actorId: admin }))).toEqual([fourth.id, second.id]);
    expect(ids(await list({ kind: "group.created" }))).toEqual([fourth.id, early.id]);
    expect(ids(await list({ actorId: admin, kind: "member.added" }))).toEqual([second.id]);
    expect(ids(await list({ after: second.at }))).toEqual([fourth.id, third.id]);
    expect(ids(await list({ before: third.at }))).toEqual([early.id, second.id, first.id]);
    expect(ids(await list({ after: first.at, before: fourth.at }))).toEqual([third.id, early.id, second.id]);

    const firstPage = await list({ limit: 2 });
    expect(ids(firstPage)).toEqual([fourth.id, third.id]);
    expect(ids(await list({ from: { at: third.at, position: third.position }, limit: 2 }))).toEqual([
      early.id,
      second.id,
    ]);
    expect(ids(await list({ from: { at: early.at, position: early.position } }))).toEqual([second.id, first.id]);
    expect(ids(await list({ from: { at: early.at, position: early.position }, actorId: admin }))).toEqual([second.id]);
    expect(ids(await list({ from: { at: third.at, position: third.position }, before: second.at }))).toEqual([
      first.id,
    ]);
    expect(
      ids(await list({ from: { at: third.at, position: third.position }, before: fourth.at, after: first.at })),
    ).toEqual([early.id, second.id]);
    expect(ids(await s.reader.audit.list(everything(other)))).toEqual([elsewhere.id]);
    expect(await s.reader.audit.list(everything(randomUUID()))).toEqual([]);
  });

  it("finds the workspace of an audit target's first entry inside the batch", async () => {
    const [owner, webhookId] = [randomUUID(), randomUUID()];
    const created = entry(owner, { kind: "webhook.created", targetType: "webhook", targetId: webhookId });
    await batch(async (tx) => {
      expect(await w().audit.workspaceOf(tx, "webhook", webhookId)).toBeNull();
      await w().audit.put(tx, created);
      expect(await w().audit.workspaceOf(tx, "webhook", webhookId)).toBe(owner);
      expect(await w().audit.workspaceOf(tx, "token", webhookId)).toBeNull();
    });
    await batch(async (tx) => {
      await w().audit.put(
        tx,
        entry(randomUUID(), { kind: "webhook.deleted", targetType: "webhook", targetId: webhookId }),
      );
      expect(await w().audit.workspaceOf(tx, "webhook", webhookId)).toBe(owner);
    });
  });
}
