// The key-encryption key: every data key is stored wrapped by it (AES-256-GCM, bound to the key's subject and
// id), and stream names that must find an address use a keyed hash derived from it. It comes from ERASURE_KEK,
// or, for the embedded default only, from a random value created once in DATA_DIR/erasure-kek (like the session
// secret), so `npm start` needs no setup. Its derived keys come from it by HKDF-SHA256: one wraps data keys, the
// others key the hashes the log keeps of what must compare equal yet confirm no guess (an address, a request's
// fingerprint, an import's scope).
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createSecretKey,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PRIVATE_DIRECTORY, type Config } from "../config/config.ts";
import { pooledRandomBytes } from "./random-pool.ts";
import { KeyStoreError } from "./key-store.port.ts";

export const KEK_FILE = "erasure-kek";
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** What a store keeps, wrapped, to tell at open whether it is given the key it was created with. */
const CHECK_SUBJECT = "kek-check";
const CHECK_PLAINTEXT = Buffer.from("workspace key-encryption key check v1");

/** HMAC-SHA256 of `value` under one of the derived keys: 64 hex digits. */
const keyedHash = (key: Buffer, value: string): string => createHmac("sha256", key).update(value, "utf8").digest("hex");
const derive = (material: string, purpose: string): Buffer =>
  Buffer.from(hkdfSync("sha256", material, "workspace-erasure", purpose, 32));

export class KeyEncryptionKey {
  /** A KeyObject made once: given bytes, every wrap and unwrap would import the key again. */
  private readonly wrapping: KeyObject;
  private readonly hashing: Buffer;
  private readonly fingerprinting: Buffer;
  private readonly scoping: Buffer;
  private readonly accounts: Buffer;

  constructor(material: string) {
    if (material.length < 32) throw new KeyStoreError("the key-encryption key must be at least 32 characters");
    this.wrapping = createSecretKey(derive(material, "data key wrapping v1"));
    this.hashing = derive(material, "address hashing v1");
    this.fingerprinting = derive(material, "request fingerprints v1");
    this.scoping = derive(material, "import scopes v1");
    this.accounts = derive(material, "later account ids v1");
  }

  wrap(subject: string, keyId: string, material: Buffer): Buffer {
    const iv = pooledRandomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.wrapping, iv);
    cipher.setAAD(Buffer.from(`${subject}|${keyId}`));
    return Buffer.concat([iv, cipher.update(material), cipher.final(), cipher.getAuthTag()]);
  }

  /** Throws KeyStoreError when the bytes were not wrapped by this key for this subject and id. */
  unwrap(subject: string, keyId: string, wrapped: Buffer): Buffer {
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.wrapping, wrapped.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(`${subject}|${keyId}`));
      decipher.setAuthTag(wrapped.subarray(wrapped.length - TAG_BYTES));
      return Buffer.concat([decipher.update(wrapped.subarray(IV_BYTES, wrapped.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw new KeyStoreError(`the key of ${subject} does not unwrap with this key-encryption key`);
    }
  }

  /** A value a new store records; `verify` of it fails under any other key-encryption key. */
  checkValue(): Buffer {
    return this.wrap(CHECK_SUBJECT, CHECK_SUBJECT, CHECK_PLAINTEXT);
  }

  verify(check: Buffer, where: string): void {
    try {
      if (this.unwrap(CHECK_SUBJECT, CHECK_SUBJECT, check).equals(CHECK_PLAINTEXT)) return;
    } catch {
      // answered below
    }
    throw new KeyStoreError(
      `the key store ${where} was created with another key-encryption key: set ERASURE_KEK to the one it was created with (or restore ${KEK_FILE} in DATA_DIR)`,
    );
  }

  /** A keyed hash of an email address (already normalised): 64 hex digits, the same in every process. */
  addressHash(address: string): string {
    return keyedHash(this.hashing, address);
  }

  /** A keyed hash of a request's canonical form (shared/idempotency/request-fingerprint.ts): 64 hex digits. */
  fingerprintHash(canonical: string): string {
    return keyedHash(this.fingerprinting, canonical);
  }

  /**
   * The id of the account a subject signs in to after `erasures` erasures of its earlier accounts (1 or more): a
   * uuid (version 4 layout) that only this key links to the subject, so an erased account's id, still shown on the
   * comments it wrote, does not lead to the new one.
   */
  laterAccountId(subject: string, erasures: number): string {
    const hex = keyedHash(this.accounts, `${subject}\n${erasures}`);
    const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }

  /** A keyed hash of an import's caller and Idempotency-Key (shared/imports/import-ids.ts): 64 hex digits. */
  importScopeHash(scope: string): string {
    return keyedHash(this.scoping, scope);
  }
}

/**
 * ERASURE_KEK, else DATA_DIR/erasure-kek (created when `createInDataDir` and absent). A process of the production
 * stack (EventStoreDB or MongoDB) must be given ERASURE_KEK: a key made up on one container would be lost with it.
 */
export function keyEncryptionKeyFor(config: Config, options: { createInDataDir: boolean }): KeyEncryptionKey {
  if (config.ERASURE_KEK) return new KeyEncryptionKey(config.ERASURE_KEK);
  const file = join(config.DATA_DIR, KEK_FILE);
  try {
    const stored = readFileSync(file, "utf8").trim();
    if (stored.length >= 32) return new KeyEncryptionKey(stored);
    throw new KeyStoreError(
      `${file} holds no key-encryption key (fewer than 32 characters): restore it from its backup`,
    );
  } catch (error) {
    if (error instanceof KeyStoreError) throw error;
  }
  if (!options.createInDataDir) {
    throw new KeyStoreError(
      `set ERASURE_KEK, or restore ${file}: the key-encryption key the key store was created with (at least 32 characters)`,
    );
  }
  mkdirSync(config.DATA_DIR, { recursive: true, mode: PRIVATE_DIRECTORY });
  const material = randomBytes(48).toString("base64url");
  try {
    writeFileSync(file, `${material}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    // Another process of the same DATA_DIR created it first: use theirs.
    if (error instanceof Error && "code" in error && error.code === "EEXIST")
      return new KeyEncryptionKey(readFileSync(file, "utf8").trim());
    throw error;
  }
  return new KeyEncryptionKey(material);
}
