// What the command API's routes and its registration use: the ports, in a file of their own so that routes and
// registration both import it and neither imports the other.
import type { UnsubscribeTokens } from "../../shared/notifications/unsubscribe-token.ts";
import type { Logger } from "pino";
import type { BlobStore } from "../../shared/blobs/blob-store.port.ts";
import type { WritePorts } from "../../shared/commands/write-ports.ts";
import type { ImageInspector } from "../../shared/images/inspect-image.ts";
import type { NoteRewriter } from "../../shared/imports/note-rewriter.ts";
import type { Quotas } from "../../shared/quotas/quotas.ts";
import type { ProjectionProgress } from "../../shared/read-store/checkpoint-watcher.ts";
import type { ErasurePorts } from "../../shared/users/erase-user.ts";
import type { ResolveHost } from "../../shared/webhooks/registration-target.ts";
import type { WebhookDeliveries } from "../../shared/webhooks/webhook-deliveries.port.ts";
import type { WebhookSecretSealer } from "../../shared/webhooks/webhook-secret.ts";
import type { CallerSlots } from "../../shared/workers/caller-slots.ts";
import type { WorkerPool } from "../../shared/workers/worker-pool.ts";
import type { VaultZipSettings } from "./imports/vault-zip.ts";

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
  /** DIFFS_PER_USER: diffs one user may run at once in this process, one count for the route and the MCP tool. */
  readonly diffSlots: CallerSlots;
  /** Parses imported notes and rewrites their links off the event loop; closed with the server. */
  readonly notes: NoteRewriter;
  /** How a vault sent as a zip is received and bounded. */
  readonly vaultZips: VaultZipSettings;
  /** PUBLIC_BASE_URL: what a share link's url starts with (its path alone when unset). */
  readonly publicBaseUrl: string | null;
  /** Checks the tokens of notification emails' unsubscribe links; null when the server has no key for them. */
  readonly unsubscribe: UnsubscribeTokens | null;
  /**
   * Keyed hashes (under keys derived from the key-encryption key) of what the log keeps to compare, not to read:
   * request fingerprints and import scopes, so that a guessed value cannot be confirmed from the log.
   */
  readonly keyedHashes: KeyedHashes;
  /** The key store and what else an erasure reaches (DELETE /me). */
  readonly erasure: Pick<ErasurePorts, "keys" | "addressHash" | "sentMail" | "readModelCopies" | "journals">;
}

interface KeyedHashes {
  readonly requestFingerprint: (canonical: string) => string;
  readonly importScope: (scope: string) => string;
}

export interface WebhookPorts {
  /** Null when the server has no key to seal secrets with (AUTH_JWKS_URL without WEBHOOK_SECRET_KEY). */
  readonly sealer: WebhookSecretSealer | null;
  readonly deliveries: WebhookDeliveries;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: URLs to private addresses are accepted (local development and tests). */
  readonly allowPrivateNetworks: boolean;
  readonly limits: WebhookLimits;
  /** How a URL's host name is resolved at registration (node's resolver when absent). */
  readonly resolveHost?: ResolveHost;
}

interface WebhookLimits {
  /** WEBHOOKS_PER_USER */
  readonly perUser: number;
  /** WEBHOOK_REPLAYS_PER_WEBHOOK */
  readonly replaysPerWebhook: number;
}
