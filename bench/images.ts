// "image upload, 1 MB JPEG": uploads per second and p99 at 10 connections into a server of its own (a fresh
// DATA_DIR, one page), and that server's peak resident memory, which the uploads alone account for.
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { mintSession } from "../shared/auth/session-verifier.ts";
import { load, type LoadFigures } from "./http-load.ts";
import { startChild, type Child } from "./processes.ts";

export interface ImageUploadFigures extends LoadFigures {
  readonly imageBytes: number;
  readonly connections: number;
  readonly peakMb: number;
  readonly idleMb: number;
}

/** A photo-like JPEG of about 1 MB: noise at high quality does not compress away. */
async function jpegOfAboutOneMegabyte(): Promise<Buffer> {
  return sharp({
    create: {
      width: 1100,
      height: 1100,
      channels: 3,
      background: "black",
      noise: { type: "gaussian", mean: 128, sigma: 60 },
    },
  })
    .jpeg({ quality: 92 })
    .toBuffer();
}

function multipartBody(boundary: string, image: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="alt"\r\n\r\nBenchmark photo\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    image,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

/** A server of its own on a fresh DATA_DIR and a signed-in user's cookie; `use` runs while it is up. */
export async function withOwnServer<T>(secret: string, use: (server: Child, cookie: string) => Promise<T>): Promise<T> {
  const dataDir = await mkdtemp(join(tmpdir(), "workspace-bench-own-"));
  const server = await startChild(
    "services/all-in-one.ts",
    { DATA_DIR: dataDir, AUTH_SESSION_SECRET: secret, LOG_LEVEL: "warn" },
    "/readyz",
  );
  try {
    const cookie = `app-auth.session_token=${await mintSession(secret, { sub: randomUUID(), email: "bench@example.com", name: "Bench" })}`;
    return await use(server, cookie);
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function benchImageUpload(options: {
  secret: string;
  durationSeconds: number;
  connections: number;
  log: (line: string) => void;
}): Promise<ImageUploadFigures> {
  return withOwnServer(options.secret, async (server, cookie) => {
    const page = await fetch(`${server.url}/api/v1/pages`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ title: "Gallery" }),
    });
    const { id } = (await page.json()) as { id: string };
    const image = await jpegOfAboutOneMegabyte();
    const boundary = `bench${randomUUID().replaceAll("-", "")}`;
    const idleMb = server.memory().currentMb;
    options.log(
      `load: POST /pages/{id}/images (${(image.length / 1e6).toFixed(2)} MB JPEG) for ${options.durationSeconds} s at ${options.connections} connections`,
    );
    const figures = await load({
      url: `${server.url}/api/v1/pages/${id}/images`,
      method: "POST",
      connections: options.connections,
      durationSeconds: options.durationSeconds,
      headers: { cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
      body: multipartBody(boundary, image),
    });
    return {
      ...figures,
      imageBytes: image.length,
      connections: options.connections,
      peakMb: server.memory().peakMb,
      idleMb,
    };
  });
}
