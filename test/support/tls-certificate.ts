// A self-signed certificate for a TLS server on loopback (`localhost` and 127.0.0.1), made when a test starts
// with the system's openssl: an ECDSA P-256 key and a certificate valid for a day, which is its own authority.
// Without openssl the suites that need it skip, saying why; with CI=true a missing openssl is a failure.
import { execFile, spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { tempDir } from "./temp-dir.ts";

export interface LoopbackCertificate {
  /** PEM: what a client trusts to accept the server. */
  readonly cert: string;
  readonly key: string;
}

/** Why certificates cannot be made here, or null when they can. Throws under CI=true, where openssl must be installed. */
export function opensslUnavailable(): string | null {
  if (spawnSync("openssl", ["version"]).status === 0) return null;
  const reason = "openssl is not installed (apt-get install -y openssl)";
  if (process.env.CI === "true") throw new Error(`${reason}: CI must run the TLS tests`);
  return reason;
}

export async function loopbackCertificate(): Promise<LoopbackCertificate> {
  const dir = await tempDir("workspace-tls-");
  try {
    const keyPath = join(dir.path, "key.pem");
    const certPath = join(dir.path, "cert.pem");
    await promisify(execFile)("openssl", [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
      "-keyout",
      keyPath,
      "-out",
      certPath,
    ]);
    return { cert: await readFile(certPath, "utf8"), key: await readFile(keyPath, "utf8") };
  } finally {
    await dir.remove();
  }
}
