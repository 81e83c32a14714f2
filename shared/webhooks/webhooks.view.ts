// Read model of webhook registrations: listed and read by their owner, and every active one read by the
// notifier to match events. The sealed secret is kept for the notifier; no API resource carries it.
import type { WebhookEvents } from "./webhook.decider.ts";

export interface WebhookRecord {
  readonly id: string;
  readonly ownerId: string;
  readonly url: string;
  readonly events: WebhookEvents;
  readonly description: string | null;
  readonly folderId: string | null;
  readonly active: boolean;
  readonly disabledReason: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Global position of WebhookCreated: the list's cursor. */
  readonly position: number;
  readonly sealedSecret: string;
}

export interface WebhooksView {
  /** A webhook that was not deleted. */
  get(id: string): Promise<WebhookRecord | null>;
  /** The owner's webhooks, newest first, created before `beforePosition` when given; at most `limit`. */
  listForOwner(ownerId: string, beforePosition: number | null, limit: number): Promise<WebhookRecord[]>;
  /** Every active webhook: what the notifier matches events against. */
  active(): Promise<WebhookRecord[]>;
}

export interface WebhooksWriter<Tx> {
  put(tx: Tx, webhook: WebhookRecord): Promise<void>;
  update(
    tx: Tx,
    id: string,
    changes: Partial<Pick<WebhookRecord, "url" | "events" | "description" | "active" | "disabledReason" | "updatedAt">>,
  ): Promise<void>;
  remove(tx: Tx, id: string): Promise<void>;
  /** The owner was erased: every webhook of theirs goes, with its URL and description. */
  removeForOwner(tx: Tx, ownerId: string): Promise<void>;
}
