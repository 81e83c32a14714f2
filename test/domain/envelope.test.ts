import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { envelopeHeader, EnvelopeError, open, seal } from "../../shared/erasure/envelope.ts";
import type { DataKey } from "../../shared/erasure/key-store.port.ts";

const keyOf = (subject: string, keyId = "k1"): DataKey => ({ subject, keyId, material: randomBytes(32) });

describe("a sealed field", () => {
  it("opens to its plaintext under its key, and names its subject and key id", () => {
    const key = keyOf("user:ann");
    const sealed = seal(key, "ann@example.com");
    expect(sealed).not.toContain("ann@example.com");
    expect(envelopeHeader(sealed)).toEqual({ subject: "user:ann", keyId: "k1" });
    expect(open(key, sealed)).toBe("ann@example.com");
  });

  it("differs each time the same value is sealed", () => {
    const key = keyOf("user:ann");
    expect(seal(key, "Ann")).not.toBe(seal(key, "Ann"));
  });

  it("does not open under another key, another key id, or another subject", () => {
    const key = keyOf("user:ann");
    const sealed = seal(key, "Ann");
    expect(() => open(keyOf("user:ann"), sealed)).toThrow(EnvelopeError);
    expect(() => open({ ...key, keyId: "k2" }, sealed)).toThrow(EnvelopeError);
    expect(() => open({ ...key, subject: "user:bob" }, sealed)).toThrow(EnvelopeError);
  });

  it("does not open once altered, even when moved to another subject with the same key", () => {
    const key = keyOf("user:ann");
    const sealed = seal(key, "Ann");
    // A character of the ciphertext replaced by another (never by itself, whatever the random IV made it).
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === "A" ? "B" : "A") + sealed.slice(-1);
    expect(flipped).not.toBe(sealed);
    expect(() => open(key, flipped)).toThrow(EnvelopeError);
    const moved = sealed.replace("user:ann", "user:bob");
    expect(() => open({ ...key, subject: "user:bob" }, moved)).toThrow(EnvelopeError);
  });

  it("treats a value that is not an envelope as plaintext", () => {
    expect(envelopeHeader("ann@example.com")).toBeNull();
    expect(envelopeHeader("pd1.only.three")).toBeNull();
  });
});
