// A self-signed certificate for a TLS server on loopback (`localhost` and 127.0.0.1), made when a test starts
// with the system's openssl: an ECDSA P-256 key and a certificate valid for a day, which is its own authority.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { tempDir } from "./temp-dir.ts";

export interface LoopbackCertificate {
  /** PEM: what a client trusts to accept the server. */
  readonly cert: string;
  readonly key: string;
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
