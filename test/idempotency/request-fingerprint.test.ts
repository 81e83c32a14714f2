import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { KeyEncryptionKey } from "../../shared/erasure/key-encryption-key.ts";
import {
  canonicalJson,
  requestFingerprint as fingerprintUnder,
  unkeyedRequestFingerprint,
  type FingerprintedRequest,
} from "../../shared/idempotency/request-fingerprint.ts";

const kek = new KeyEncryptionKey("k".repeat(40));
const requestFingerprint = (request: FingerprintedRequest): string =>
  fingerprintUnder(request, (text) => kek.fingerprintHash(text));

const create = {
  method: "POST",
  path: "/pages",
  body: { title: "Plan", icon: null, properties: { b: 1, a: [2, { d: 3, c: 4 }] } },
};

describe("request fingerprint", () => {
  it("does not depend on the order of the body's keys", () => {
    const reordered = { ...create, body: { properties: { a: [2, { c: 4, d: 3 }], b: 1 }, icon: null, title: "Plan" } };
    expect(requestFingerprint(reordered)).toBe(requestFingerprint(create));
  });

  it("differs when the method, the path or the body differs", () => {
    const fingerprint = requestFingerprint(create);
    expect(requestFingerprint({ ...create, method: "PATCH" })).not.toBe(fingerprint);
    expect(requestFingerprint({ ...create, path: "/folders" })).not.toBe(fingerprint);
    expect(requestFingerprint({ ...create, body: { ...create.body, title: "Plan B" } })).not.toBe(fingerprint);
    expect(
      requestFingerprint({ ...create, body: { ...create.body, properties: { b: 1, a: [{ d: 3, c: 4 }, 2] } } }),
    ).not.toBe(fingerprint);
  });

  it("tells apart the same route with other parameters", () => {
    expect(requestFingerprint({ method: "POST", path: "/pages/1/comments", body: {} })).not.toBe(
      requestFingerprint({ method: "POST", path: "/pages/2/comments", body: {} }),
    );
  });

  it("is a keyed hash, so the body itself is never kept and a guessed body cannot be confirmed without the key", () => {
    const share = {
      method: "POST",
      path: "/shares/entity/page/1/grants",
      body: { email: "guessed@example.com", permission: "view" },
    };
    const fingerprint = requestFingerprint(share);
    expect(fingerprint).toMatch(/^k1\.[0-9a-f]{64}$/);
    // What whoever reads the log could compute from a guess: neither the plain SHA-256 nor another key's hash.
    const guess = createHash("sha256")
      .update(canonicalJson(["POST", share.path, share.body]))
      .digest("hex");
    expect(fingerprint).not.toContain(guess);
    expect(fingerprintUnder(share, (text) => new KeyEncryptionKey("o".repeat(40)).fingerprintHash(text))).not.toBe(
      fingerprint,
    );
    // The form recorded before fingerprints were keyed, still matched for a retry across the upgrade.
    expect(unkeyedRequestFingerprint(share)).toBe(guess);
  });
});

describe("canonical JSON", () => {
  it("sorts every object's keys and keeps arrays in order", () => {
    expect(canonicalJson({ b: [3, { z: 1, y: 2 }], a: "x" })).toBe('{"a":"x","b":[3,{"y":2,"z":1}]}');
  });

  it("writes what JSON.stringify would put on the wire", () => {
    expect(canonicalJson({ at: new Date("2026-03-01T09:00:00.000Z"), gone: undefined })).toBe(
      '{"at":"2026-03-01T09:00:00.000Z"}',
    );
    expect(canonicalJson(undefined)).toBe("null");
  });
});
