// POST /imports/obsidian: a vault's notes, images and other files become folders, pages, images and attachments
// under the caller's root or in a folder (`?folderId=`, edit needed), and importing it there again updates what
// the earlier import made (services/command-api/imports/vault-import.ts does the work). The vault comes as JSON
// (`{files: [{path, content}]}`) or as a zip (`application/zip`: an export as it is, or a vault zipped by hand),
// spooled to disk and read entry by entry (services/command-api/imports/vault-zip.ts); both forms give the same
// files to the same import. One request is one logical operation: every event carries the request's correlation
// id, ids derive from the target and the files' paths so a retry after a failure creates only what is missing,
// and progress is logged as it goes.
import { Readable } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { App } from "../../../shared/http/create-app.ts";
import {
  contentBytes,
  IMPORT_MAX_FILES,
  IMPORT_MAX_TOTAL_BYTES,
  type VaultFile,
} from "../../../shared/imports/vault-files.ts";
import type { CommandApiPorts } from "../command-api-ports.ts";
import { importScopes } from "../../../shared/imports/import-ids.ts";
import { folderIdSchema } from "../../../shared/kernel/ids.ts";
import { importTarget } from "../imports/import-target.ts";
import { boundedImportResult, importResult } from "../imports/import-result.ts";
import { VaultImport } from "../imports/vault-import.ts";
import { runAsCaller, userCaller } from "../../../shared/workers/pool-caller.ts";
import { readVaultZip } from "../imports/vault-zip.ts";
import { spoolZip, zipTooLarge } from "../imports/zip-spool.ts";
import { value } from "../answers/answer.ts";
import { writeResponses } from "../write-answer.ts";
import { answerWrites } from "../write-route.ts";
import { closeAfterAnswer } from "./unread-body.ts";

/** What the JSON of 50 MB of content can take, with paths and base64 around it. */
const IMPORT_BODY_LIMIT_BYTES = 72 * 1024 * 1024;
/** `application/x-zip-compressed` is what Windows names a .zip file, and so what its browsers send. */
const ZIP_TYPES = ["application/zip", "application/x-zip-compressed"];

const importBody = z.object({
  files: z
    .array(z.object({ path: z.string().max(4_096), content: z.string() }))
    .min(1)
    .max(IMPORT_MAX_FILES, `at most ${IMPORT_MAX_FILES} files per import`),
});

/** The vault a request sends, what stands for it in an Idempotency-Key's fingerprint, and what to close after. */
interface SentVault {
  readonly files: readonly VaultFile[];
  readonly fingerprintBody: unknown;
  /** Closes what the files' sources read from (a zip's spool), once the import is done. */
  close(): Promise<void>;
}

/**
 * A zip body: spooled (never past IMPORT_ZIP_MAX_BYTES), then its entries listed and its notes and images read.
 * The spool stays open for the other files, read only when linked, until the caller closes the vault.
 */
async function zipVault(
  ports: CommandApiPorts,
  request: FastifyRequest,
  reply: FastifyReply,
  body: Readable,
): Promise<SentVault> {
  const { maxZipBytes, spoolDirectory } = ports.vaultZips;
  try {
    const declared = Number(request.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxZipBytes) throw zipTooLarge(maxZipBytes);
    const spooled = await spoolZip(body, { directory: spoolDirectory, maxBytes: maxZipBytes });
    try {
      const zip = await readVaultZip(spooled.file, spooled.size, ports.vaultZips);
      const close = async () => {
        zip.close();
        await spooled.file.close();
      };
      return { files: zip.files, fingerprintBody: { zipSha256: spooled.sha256 }, close };
    } catch (error) {
      await spooled.file.close();
      throw error;
    }
  } catch (error) {
    // The rest of an oversized body is never read.
    if (error instanceof AppError && error.code === "payload_too_large" && error.headers.connection === "close")
      closeAfterAnswer(request, reply);
    throw error;
  }
}

export async function importCommandRoutes(app: App, ports: CommandApiPorts): Promise<void> {
  const answer = answerWrites(ports);
  // In a scope of its own: only this route takes zip bodies.
  await app.register(async (zipScope: App) => {
    // The body stays a stream: the handler spools it, counting its bytes as they come.
    zipScope.addContentTypeParser(ZIP_TYPES, (_request, payload, done) => done(null, payload));
    zipScope.post(
      "/imports/obsidian",
      {
        bodyLimit: IMPORT_BODY_LIMIT_BYTES,
        // A zip's body is a stream the JSON schema refuses: the handler raises the refusal for JSON bodies only.
        attachValidation: true,
        config: { access: { scope: "pages:write" } },
        schema: {
          querystring: z.object({
            folderId: folderIdSchema
              .optional()
              .describe(
                "the folder to import into (the vault's root becomes its contents); the caller's root when left out. Importing the same vault into the same place again updates what the earlier import made",
              ),
          }),
          body: importBody,
          response: writeResponses({ 201: importResult }),
        },
      },
      async (request, reply) =>
        answer(request, reply, async ({ actor, once }) => {
          const sent: unknown = request.body;
          const folderId = request.query.folderId ?? null;
          // Decided before the body is read: an unseen folder costs what a missing one does.
          const target = await importTarget(ports.views, actor.principal, folderId).catch((error: unknown) => {
            if (sent instanceof Readable) closeAfterAnswer(request, reply);
            throw error;
          });
          let vault: SentVault;
          if (sent instanceof Readable) {
            vault = await zipVault(ports, request, reply, sent);
          } else {
            if (request.validationError) throw request.validationError;
            const { files } = request.body;
            const bytes = contentBytes(files);
            if (bytes > IMPORT_MAX_TOTAL_BYTES) {
              throw new AppError(
                "validation_failed",
                `body.files: ${bytes} bytes of content; an import takes at most ${IMPORT_MAX_TOTAL_BYTES} (50 MB)`,
              );
            }
            vault = { files, fingerprintBody: request.body, close: async () => undefined };
          }
          const key = request.headers["idempotency-key"];
          const retry = typeof key === "string" ? { callerId: actor.context.actorId, idempotencyKey: key } : null;
          const scopes = importScopes(ports.keyedHashes.importScope, { ownerId: target.ownerId, folderId }, retry);
          // What the import reads and writes in all: the zip form's uncompressed limit, the JSON form's content limit.
          const limits = {
            maxWrittenBytes: sent instanceof Readable ? ports.vaultZips.maxUncompressedBytes : IMPORT_MAX_TOTAL_BYTES,
          };
          // Without a folder, the fingerprint is what it was before imports took one.
          const fingerprintBody =
            folderId === null ? vault.fingerprintBody : { vault: vault.fingerprintBody, folderId };
          try {
            return await once(
              async () => {
                // The notes' tasks take the worker pool's turns as this user's.
                const { result, position } = await runAsCaller(userCaller(actor.context.actorId), () =>
                  new VaultImport(ports, actor, target, scopes, limits).run(vault.files),
                );
                // The counts are the write side's own: the same whether the read models show the import yet or not.
                return { position, status: 201, answer: value(boundedImportResult(result)) };
              },
              { fingerprintBody },
            );
          } finally {
            await vault.close();
          }
        }),
    );
  });
}
