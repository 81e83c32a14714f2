import { describe, expect, it } from "vitest";
import { canonicalJson, requestFingerprint } from "../../shared/idempotency/request-fingerprint.ts";

const create = { method: "POST", path: "/pages", body: { title: "Plan", icon: null, properties: { b: 1, a: [2, { d: 3, c: 4 }] } } };

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
    expect(requestFingerprint({ ...create, body: { ...create.body, properties: { b: 1, a: [{ d: 3, c: 4 }, 2] } } })).not.toBe(fingerprint);
  });

  it("tells apart the same route with other parameters", () => {
    expect(requestFingerprint({ method: "POST", path: "/pages/1/comments", body: {} })).not.toBe(requestFingerprint({ method: "POST", path: "/pages/2/comments", body: {} }));
  });

  it("is a SHA-256, so the body itself is never kept", () => {
    expect(requestFingerprint(create)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("canonical JSON", () => {
  it("sorts every object's keys and keeps arrays in order", () => {
    expect(canonicalJson({ b: [3, { z: 1, y: 2 }], a: "x" })).toBe('{"a":"x","b":[3,{"y":2,"z":1}]}');
  });

  it("writes what JSON.stringify would put on the wire", () => {
    expect(canonicalJson({ at: new Date("2026-03-01T09:00:00.000Z"), gone: undefined })).toBe('{"at":"2026-03-01T09:00:00.000Z"}');
    expect(canonicalJson(undefined)).toBe("null");
  });
});
