// The main table's rows that each start a fresh server of their own: image uploads, a vault's import, attachment
// transfers, tracing's cost, the event loop under heavy requests, and a workspace's export.
import { attachmentRows, benchAttachmentTransfer } from "../attachments.ts";
import { benchEventLoop, eventLoopRows } from "../event-loop.ts";
import { benchExport } from "../export.ts";
import { failedText } from "../http-load.ts";
import { benchImageUpload } from "../images.ts";
import { benchVaultImport } from "../import.ts";
import { fmt } from "../report.ts";
import { benchTracingCost, tracingRows } from "../tracing.ts";
import type { TableRun } from "./table-run.ts";

export async function freshServerRows(run: TableRun): Promise<void> {
  const { options, log, rows, raw, secret } = run;
  const uploads = await benchImageUpload({ secret, durationSeconds: options.duration, connections: 10, log });
  raw.imageUpload = uploads;
  rows.push({
    figure: `image upload, 1 MB JPEG (${fmt(uploads.imageBytes / 1e6, 2)} MB), ${uploads.connections} connections`,
    value: `${fmt(uploads.requestsPerSecond)} uploads/s, p99 ${fmt(uploads.p99Ms)} ms, ${failedText(uploads)}`,
    reference: `server peak RSS ${fmt(uploads.peakMb)} MB (idle ${fmt(uploads.idleMb)} MB)`,
    ratio: "—",
    target: "report",
    verdict: "report",
  });
  const vaultImport = await benchVaultImport({ secret, log });
  raw.vaultImport = vaultImport;
  rows.push({
    figure: `import of a ${fmt(vaultImport.files)}-file vault (900 linked notes, 100 images)`,
    value:
      vaultImport.status === 201
        ? `${fmt(vaultImport.seconds, 1)} s, ${fmt(vaultImport.pagesPerSecond)} pages/s`
        : `failed: ${vaultImport.status}`,
    reference: `server peak RSS ${fmt(vaultImport.peakMb)} MB`,
    ratio: "—",
    target: "report",
    verdict: "report",
  });
  const attachments = await benchAttachmentTransfer({ secret, log });
  raw.attachments = attachments;
  rows.push(...attachmentRows(attachments));
  const tracingCost = await benchTracingCost({
    secret,
    seconds: Math.min(options.duration, 10),
    connections: options.connections,
    log,
  });
  raw.tracing = tracingCost;
  rows.push(...tracingRows(tracingCost));
  const eventLoop = await benchEventLoop({ secret, quick: options.quick, log });
  raw.eventLoop = eventLoop;
  rows.push(...eventLoopRows(eventLoop));
  const exported = await benchExport({ secret, pages: Math.min(options.pages, 10_000), log });
  raw.export = exported;
  rows.push({
    figure: `export of a ${fmt(exported.pages)}-page workspace (GET /exports/obsidian, ${fmt(exported.zipMb, 1)} MB zip)`,
    value:
      exported.status === 200
        ? `${fmt(exported.seconds, 1)} s, ${fmt(exported.pagesPerSecond)} pages/s`
        : `failed: ${exported.status}`,
    reference: `server peak RSS ${fmt(exported.peakMb)} MB while exporting (idle ${fmt(exported.idleMb)} MB)`,
    ratio: "—",
    target: "report",
    verdict: "report",
  });
}
