// A sealed field: one value encrypted with AES-256-GCM under its subject's data key. The envelope names the
// subject and the key's id, so a reader fetches the key without knowing which event or field it is reading,
// and both are bound in as associated data, so an envelope cannot be moved to another subject. Pure.
import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject } from "node:crypto";
import type { DataKey } from "./key-store.port.ts";
import { pooledRandomBytes } from "./random-pool.ts";

const PREFIX = "pd1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface EnvelopeHeader {
  readonly subject: string;
  readonly keyId: string;
}

/** What sealing and opening need of a key besides its bytes, made once per key rather than once per field. */
interface PreparedKey {
  readonly secret: KeyObject;
  readonly associatedData: Buffer;
}
const prepared = new WeakMap<DataKey, PreparedKey>();

const associatedData = (header: EnvelopeHeader): Buffer => Buffer.from(`${PREFIX}|${header.subject}|${header.keyId}`);

function prepare(key: DataKey): PreparedKey {
  const known = prepared.get(key);
  if (known) return known;
  const made = { secret: createSecretKey(key.material), associatedData: associatedData(key) };
  prepared.set(key, made);
  return made;
}

/** `pd1.<subject>.<key id>.<iv>.<ciphertext and tag>`, base64url parts; subjects and key ids hold no dots. */
export function seal(key: DataKey, plaintext: string): string {
  const { secret, associatedData: aad } = prepare(key);
  const iv = pooledRandomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", secret, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${PREFIX}.${key.subject}.${key.keyId}.${iv.toString("base64url")}.${body.toString("base64url")}`;
}

/** An envelope taken apart once: its header, and where its IV and body are in the text. */
export interface ParsedEnvelope extends EnvelopeHeader {
  readonly iv: string;
  readonly body: string;
}

/** The envelope's parts, or null when the value is not an envelope (plaintext). */
export function parseEnvelope(value: string): ParsedEnvelope | null {
  if (!value.startsWith(`${PREFIX}.`)) return null;
  const afterSubject = value.indexOf(".", PREFIX.length + 1);
  const afterKeyId = afterSubject < 0 ? -1 : value.indexOf(".", afterSubject + 1);
  const afterIv = afterKeyId < 0 ? -1 : value.indexOf(".", afterKeyId + 1);
  if (afterIv < 0 || value.indexOf(".", afterIv + 1) >= 0) return null;
  const subject = value.slice(PREFIX.length + 1, afterSubject);
  const keyId = value.slice(afterSubject + 1, afterKeyId);
  const iv = value.slice(afterKeyId + 1, afterIv);
  const body = value.slice(afterIv + 1);
  if (!subject || !keyId || !iv || !body) return null;
  return { subject, keyId, iv, body };
}

/** The subject and key id of a sealed value, or null when the value is not an envelope (plaintext). */
export function envelopeHeader(value: string): EnvelopeHeader | null {
  const parsed = parseEnvelope(value);
  return parsed && { subject: parsed.subject, keyId: parsed.keyId };
}

export class EnvelopeError extends Error {}

/** The plaintext of an envelope sealed under `key`; throws EnvelopeError when it was not (or was altered). */
export function open(key: DataKey, envelope: string | ParsedEnvelope): string {
  const parsed = typeof envelope === "string" ? parseEnvelope(envelope) : envelope;
  if (!parsed || parsed.subject !== key.subject || parsed.keyId !== key.keyId)
    throw new EnvelopeError("the envelope was not sealed under this key");
  const body = Buffer.from(parsed.body, "base64url");
  if (body.length < TAG_BYTES) throw new EnvelopeError("the envelope is truncated");
  const { secret, associatedData: aad } = prepare(key);
  try {
    const decipher = createDecipheriv("aes-256-gcm", secret, Buffer.from(parsed.iv, "base64url"));
    decipher.setAAD(aad);
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    throw new EnvelopeError("the envelope does not open under its key (altered, or another key of the same id)");
  }
}
