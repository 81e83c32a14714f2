// "40 MB attachment": three uploads, then three downloads, of a 40 MiB file through a server of its own, each
// three with the server's resident memory sampled every 20 ms (what they add over the RSS just before) and the
// event-loop probe beside them (/healthz answer times and the server's loop delay), set beside the probe on the
// quiet server. The file is written to the request a MiB at a time and read from the response as it streams, so
// the client holds none of it either.
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { withOwnServer } from "./images.ts";
import type { Child } from "./processes.ts";
import { fmt, verdict, type Row } from "./report.ts";
import { withProbe, type LoopFigures } from "./worst/probe.ts";

const MiB = 1024 * 1024;
/** The file: 40 MiB of bytes that do not compress, sent in blocks of one MiB. */
const FILE_BLOCKS = 40;
/**
 * What the transfer may add to the server's RSS: less than the file, so it is never held whole. What an upload
 * adds is V8's young generation filling with the stream's spent chunks (about 26 MB whether the file is 40 or
 * 48 MiB), not the file.
 */
const TARGET_RSS_GROWTH_MB = 40;
/** As the worst-case table: no caller waits 50 ms at the 99th percentile, nor 200 ms ever. */
const TARGET_PROBE_P99_MS = 50;
const TARGET_PROBE_MAX_MS = 200;
const TRANSFERS = 3;
const SAMPLE_MS = 20;

interface TransferFigures {
  /** Every transfer's status and bytes moved. */
  readonly statuses: readonly number[];
  readonly bytes: readonly number[];
  /** For the three together. */
  readonly seconds: number;
  readonly baselineMb: number;
  readonly peakMb: number;
  readonly loop: LoopFigures;
}

export interface AttachmentFigures {
  readonly fileBytes: number;
  readonly upload: TransferFigures;
  readonly download: TransferFigures;
  readonly quiet: LoopFigures;
}

const rssMb = (server: Child): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.process.pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

/** `transfer` three times in a row, with the server's RSS sampled and the loop probe beside them. */
async function measured(
  server: Child,
  transfer: () => Promise<{ status: number; bytes: number }>,
): Promise<TransferFigures> {
  const baselineMb = rssMb(server);
  let peakMb = baselineMb;
  const sampler = setInterval(() => {
    peakMb = Math.max(peakMb, rssMb(server));
  }, SAMPLE_MS);
  const started = performance.now();
  try {
    const { result, loop } = await withProbe(server, async () => {
      const answers: Array<{ status: number; bytes: number }> = [];
      for (let index = 0; index < TRANSFERS; index += 1) answers.push(await transfer());
      return answers;
    });
    const seconds = (performance.now() - started) / 1000;
    return {
      statuses: result.map((answer) => answer.status),
      bytes: result.map((answer) => answer.bytes),
      seconds,
      baselineMb,
      peakMb: Math.max(peakMb, rssMb(server)),
      loop,
    };
  } finally {
    clearInterval(sampler);
  }
}

/** A multipart upload written block by block, waiting for each to drain; the answer's status and attachment id. */
function upload(
  server: Child,
  cookie: string,
  pageId: string,
  block: Buffer,
): Promise<{ status: number; bytes: number; id: string }> {
  const boundary = `bench${randomUUID().replaceAll("-", "")}`;
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const sent = request({
      host: hostname,
      port,
      method: "POST",
      path: `/api/v1/pages/${pageId}/attachments`,
      headers: { cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
    });
    sent.on("error", reject);
    sent.on("response", (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => {
        const id = /"id":"([0-9a-f-]{36})"/.exec(body)?.[1] ?? "";
        resolve({ status: response.statusCode ?? 0, bytes: FILE_BLOCKS * block.length, id });
      });
    });
    sent.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="recording.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    let written = 0;
    const next = (): void => {
      if (written === FILE_BLOCKS) {
        sent.end(`\r\n--${boundary}--\r\n`);
        return;
      }
      written += 1;
      if (sent.write(block)) setImmediate(next);
      else sent.once("drain", next);
    };
    next();
  });
}

async function download(
  server: Child,
  cookie: string,
  attachmentId: string,
): Promise<{ status: number; bytes: number }> {
  const response = await fetch(`${server.url}/api/v1/attachments/${attachmentId}`, { headers: { cookie } });
  let bytes = 0;
  for await (const chunk of response.body ?? []) bytes += (chunk as Uint8Array).length;
  return { status: response.status, bytes };
}

export async function benchAttachmentTransfer(options: {
  secret: string;
  log: (line: string) => void;
}): Promise<AttachmentFigures> {
  return withOwnServer(options.secret, async (server, cookie) => {
    const page = await fetch(`${server.url}/api/v1/pages`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ title: "Recordings" }),
    });
    const { id: pageId } = (await page.json()) as { id: string };
    // The same random block repeated: incompressible for any compressing layer that looks at less than a MiB.
    const block = randomBytes(MiB);
    // One small upload and download first, so the routes' first use (module loading, JIT) is not in the figures.
    await download(server, cookie, (await upload(server, cookie, pageId, Buffer.alloc(1))).id);
    const { loop: quiet } = await withProbe(server, () => new Promise((resolve) => setTimeout(resolve, 1_000)));
    options.log(`attachments: POST a ${FILE_BLOCKS} MiB file ${TRANSFERS} times`);
    let attachmentId = "";
    const uploaded = await measured(server, async () => {
      const answer = await upload(server, cookie, pageId, block);
      attachmentId = answer.id;
      return answer;
    });
    options.log(`attachments: GET it back ${TRANSFERS} times`);
    const downloaded = await measured(server, () => download(server, cookie, attachmentId));
    return { fileBytes: FILE_BLOCKS * MiB, upload: uploaded, download: downloaded, quiet };
  });
}

export function attachmentRows(figures: AttachmentFigures): Row[] {
  const fileMb = figures.fileBytes / MiB;
  const row = (what: string, transfer: TransferFigures, expected: number): Row => {
    const growthMb = transfer.peakMb - transfer.baselineMb;
    const { loop } = transfer;
    const whole =
      transfer.statuses.every((status) => status === expected) &&
      transfer.bytes.every((bytes) => bytes === figures.fileBytes);
    const ok =
      whole &&
      growthMb < TARGET_RSS_GROWTH_MB &&
      loop.probeP99Ms < TARGET_PROBE_P99_MS &&
      loop.probeMaxMs < TARGET_PROBE_MAX_MS;
    return {
      figure: `attachment ${what}, ${fmt(fileMb)} MiB, ${TRANSFERS}× in a row`,
      value:
        `${whole ? `${expected} each` : `answered ${transfer.statuses.join(" ")}`}, ${fmt((TRANSFERS * fileMb) / transfer.seconds)} MiB/s; peak RSS +${fmt(growthMb, 1)} MB; ` +
        `/healthz p99 ${fmt(loop.probeP99Ms, 1)} ms, max ${fmt(loop.probeMaxMs)} ms; loop max ${fmt(loop.loopMaxMs)} ms`,
      reference: `the file ${fmt(fileMb)} MiB; RSS before ${fmt(transfer.baselineMb)} MB; quiet probe p99 ${fmt(figures.quiet.probeP99Ms, 1)} ms`,
      ratio: `${fmt(growthMb / fileMb, 2)}× the file`,
      target: `RSS growth < ${TARGET_RSS_GROWTH_MB} MB; probe p99 < ${TARGET_PROBE_P99_MS} ms, max < ${TARGET_PROBE_MAX_MS} ms`,
      verdict: verdict(ok),
    };
  };
  return [
    row("upload (POST /pages/{id}/attachments)", figures.upload, 201),
    row("download (GET /attachments/{id})", figures.download, 200),
  ];
}
