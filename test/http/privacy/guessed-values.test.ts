// Hashes the log keeps confirm no guessed value to whoever reads it without the key-encryption key: the
// fingerprint of a share recorded for its Idempotency-Key (its body names the invitee's address), and the ids an
// import derives from its caller, its key and its notes' paths. Each guess is made as an outsider would, from
// what the log shows (the caller's id, the path, the stored hash) and the plain SHA-256 the values once were.
import { createHash, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { idempotencyStream } from "../../../shared/idempotency/idempotency.decider.ts";
import { idempotencyKeyHash } from "../../../shared/idempotency/idempotency-key.ts";
import { canonicalJson } from "../../../shared/idempotency/request-fingerprint.ts";
import { derivedId } from "../../../shared/imports/import-ids.ts";
import { userIdSchema } from "../../../shared/kernel/ids.ts";
import { serverForFile } from "../../support/server-for-file.ts";
import { importVault, resolve } from "../../support/vault-import.ts";
import { createPage } from "../../support/workspace-builders.ts";

const file = serverForFile();

describe("what the log holds of a request", () => {
  it("a share's recorded fingerprint does not confirm a guessed invitee address", async () => {
    const ann = await file.server.registered("ann");
    const pageId = await createPage(ann);
    const key = randomUUID();
    const path = `/api/v1/shares/entity/page/${pageId}/grants`;
    const body = { email: "guessed.invitee@example.com", permission: "view" };
    const shared = await ann.call("POST", path.replace("/api/v1", ""), {
      json: body,
      headers: { "idempotency-key": key },
    });
    expect(shared.status, shared.text).toBe(202);
    const { events } = await file.server.internals.eventStore.read(
      idempotencyStream(idempotencyKeyHash(userIdSchema.parse(ann.id), key)),
    );
    const recorded = events.map((event) => (event.data as { fingerprint?: unknown }).fingerprint);
    expect(recorded.length).toBeGreaterThan(0);
    const guess = createHash("sha256")
      .update(canonicalJson(["POST", path, body]))
      .digest("hex");
    for (const fingerprint of recorded) expect(String(fingerprint)).not.toContain(guess);
  });

  it("an imported page's id does not confirm a guessed note path", async () => {
    const bob = await file.server.registered("bob");
    const key = "import-2026-11";
    const imported = await importVault(bob, [{ path: "Diagnosis/Hypochondria-notes.md", content: "private" }], {
      "idempotency-key": key,
    });
    expect(imported.status, imported.text).toBe(201);
    const [page] = await resolve(bob, "Hypochondria-notes");
    const guess = derivedId(`${bob.id}\n${key}`, "page", "Diagnosis/Hypochondria-notes.md");
    expect(page?.id).toEqual(expect.any(String));
    expect(page?.id).not.toBe(guess);
  });
});
