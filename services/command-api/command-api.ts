// The command API: every POST, PATCH, PUT and DELETE of /api/v1. Appends events; answers once projected.
import type { WorkerPool } from "../../shared/workers/worker-pool.ts";
import type { ErasurePorts } from "../../shared/users/erase-user.ts";
import { meCommandRoutes } from "./routes/me.routes.ts";
import type { Logger } from "pino";
import type { BlobStore } from "../../shared/blobs/blob-store.port.ts";
import type { Quotas } from "../../shared/quotas/quotas.ts";
import type { WritePorts } from "../../shared/commands/write-ports.ts";
import type { App } from "../../shared/http/create-app.ts";
import { API_PREFIX } from "../../shared/http/locations.ts";
import type { ProjectionProgress } from "../../shared/read-store/checkpoint-watcher.ts";
import { commentCommandRoutes } from "./routes/comments.routes.ts";
import type { ImageInspector } from "../../shared/images/inspect-image.ts";
import type { NoteRewriter } from "../../shared/imports/note-rewriter.ts";
import { startOrphanImageSweep } from "../../shared/images/orphan-blobs.ts";
import { imageCommandRoutes } from "./routes/images.routes.ts";
import { attachmentCommandRoutes } from "./routes/attachments.routes.ts";
import { importCommandRoutes } from "./routes/imports.routes.ts";
import type { VaultZipSettings } from "./imports/vault-zip.ts";
import { folderCommandRoutes } from "./routes/folders.routes.ts";
import { internalRoutes } from "./routes/internal.routes.ts";
import { invitationCommandRoutes } from "./routes/invitations.routes.ts";
import { pageCommandRoutes } from "./routes/pages.routes.ts";
import { pageDuplicateRoutes } from "./routes/page-duplicates.routes.ts";
import { trashCommandRoutes } from "./routes/trash.routes.ts";
import { startTrashPurge } from "../../shared/trash/purge.ts";
import { shareCommandRoutes } from "./routes/shares.routes.ts";
import { tokenCommandRoutes } from "./routes/tokens.routes.ts";
import { webhookCommandRoutes, type WebhookPorts } from "./routes/webhooks.routes.ts";
import { shareLinkCommandRoutes } from "./routes/share-links.routes.ts";

/** What the command API's routes use: the write ports, the projection to wait on, and the time. */
export interface CommandApiPorts extends WritePorts {
  readonly projection: ProjectionProgress;
  readonly clock: () => Date;
  readonly logger: Logger;
  /** How long a write waits for its projection before answering 202. */
  readonly consistencyWaitMs: number;
  /** Where uploaded images' bytes go. */
  readonly blobs: BlobStore;
  /** Per-user quotas: active API tokens, stored blob bytes (images and attachments) per workspace owner. */
  readonly quotas: Quotas;
  /** ATTACHMENT_MAX_BYTES: the largest attached file. */
  readonly attachmentMaxBytes: number;
  /** TRASH_RETENTION_DAYS: deleted pages older than this are purged. */
  readonly trashRetentionDays: number;
  /** Checks uploaded and imported images, a bounded number at a time. */
  readonly images: ImageInspector;
  /** Webhook secrets' sealing and the delivery log (retries and replays are queued there). */
  readonly webhooks: WebhookPorts;
  /** The process's worker pool for CPU-heavy work (diffs; the import's notes go through `notes`). */
  readonly pool: WorkerPool;
  /** Parses imported notes and rewrites their links off the event loop; closed with the server. */
  readonly notes: NoteRewriter;
  /** How a vault sent as a zip is received and bounded. */
  readonly vaultZips: VaultZipSettings;
  /** PUBLIC_BASE_URL: what a share link's url starts with (its path alone when unset). */
  readonly publicBaseUrl: string | null;
  /** The key store and what else an erasure reaches (DELETE /me). */
  readonly erasure: Pick<ErasurePorts, "keys" | "addressHash" | "sentMail">;
}

export async function registerCommandApi(app: App, ports: CommandApiPorts): Promise<void> {
  await app.register(
    async (api: App) => {
      tokenCommandRoutes(api, ports);
      meCommandRoutes(api, ports);
      folderCommandRoutes(api, ports);
      pageCommandRoutes(api, ports);
      pageDuplicateRoutes(api, ports);
      trashCommandRoutes(api, ports);
      commentCommandRoutes(api, ports);
      shareCommandRoutes(api, ports);
      invitationCommandRoutes(api, ports);
      await imageCommandRoutes(api, ports);
      await attachmentCommandRoutes(api, ports);
      await importCommandRoutes(api, ports);
      webhookCommandRoutes(api, ports, ports.webhooks);
      shareLinkCommandRoutes(api, ports);
    },
    { prefix: API_PREFIX },
  );
  internalRoutes(app, ports);
  // Bytes an interrupted upload left without a record: swept once the server is up, then hourly.
  let sweep: { stop(): Promise<void> } | null = null;
  // Deleted pages past the trash's retention: purged once the server is up, then hourly.
  let purge: { stop(): Promise<void> } | null = null;
  app.addHook("onReady", async () => {
    sweep = startOrphanImageSweep(ports);
    purge = startTrashPurge(ports);
  });
  app.addHook("onClose", async () => {
    await sweep?.stop();
    await purge?.stop();
    await ports.notes.close();
  });
}
