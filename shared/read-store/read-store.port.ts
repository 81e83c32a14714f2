// The read-store port, in two halves. A query node is given the query views (read-only, every method async);
// the projector is given the projection writers and applies each batch of the global log through one
// transaction or session handle (`Tx`) together with its checkpoint, so a MongoDB adapter can commit the
// batch and its checkpoint in one transaction as the SQLite adapter does.
import type { AccessView, AccessWriter } from "../access/access.view.ts";
import type { ThreadsView, ThreadsWriter } from "../threads/threads.view.ts";
import type { FoldersView, FoldersWriter } from "../folders/folders.view.ts";
import type { ImagesView, ImagesWriter } from "../images/images.view.ts";
import type { AttachmentsView, AttachmentsWriter } from "../attachments/attachments.view.ts";
import type { HistoryView, HistoryWriter } from "../history/history.view.ts";
import type { LinksView, LinksWriter } from "../links/links.view.ts";
import type { TrashView, TrashWriter } from "../trash/trash.view.ts";
import type { PagesView, PagesWriter } from "../pages/pages.view.ts";
import type { InvitationsView, InvitationsWriter } from "../sharing/invitations.view.ts";
import type { TokensView, TokensWriter } from "../tokens/tokens.view.ts";
import type { AppsView, AppsWriter } from "../apps/apps.view.ts";
import type { ShareLinksView, ShareLinksWriter } from "../share-links/share-links.view.ts";
import type { UsersView, UsersWriter } from "../users/users.view.ts";
import type { WebhooksView, WebhooksWriter } from "../webhooks/webhooks.view.ts";
import type { StoredBytesView, StoredBytesWriter } from "../quotas/stored-bytes.view.ts";
import type { GroupsView, GroupsWriter } from "../groups/groups.view.ts";
import type { ParkedEventsStore } from "./parked-events.port.ts";
import type { TemplatesView, TemplatesWriter } from "../templates/templates.view.ts";
import type { WatchesView, WatchesWriter } from "../watching/watches.view.ts";
import type { NotificationSettingsView, NotificationSettingsWriter } from "../watching/notification-settings.view.ts";
import type { MentionsView, MentionsWriter } from "../mentions/mentions.view.ts";
import type { DirectoryView, DirectoryWriter } from "../directory/directory.view.ts";
import type { NotificationsView, NotificationsWriter } from "../notifications/notifications.view.ts";
import type { AuditView, AuditWriter } from "../audit/audit.view.ts";

/** The query views: what the query API, the command API's checks and the notifier read. */
export interface ReadModels {
  readonly users: UsersView;
  readonly tokens: TokensView;
  readonly apps: AppsView;
  readonly folders: FoldersView;
  readonly pages: PagesView;
  readonly access: AccessView;
  readonly threads: ThreadsView;
  readonly invitations: InvitationsView;
  readonly images: ImagesView;
  readonly attachments: AttachmentsView;
  readonly history: HistoryView;
  readonly webhooks: WebhooksView;
  readonly links: LinksView;
  readonly trash: TrashView;
  readonly shareLinks: ShareLinksView;
  readonly storedBytes: StoredBytesView;
  readonly groups: GroupsView;
  readonly templates: TemplatesView;
  readonly watches: WatchesView;
  readonly notificationSettings: NotificationSettingsView;
  readonly mentions: MentionsView;
  readonly directory: DirectoryView;
  readonly notifications: NotificationsView;
  readonly audit: AuditView;
}

/** A read-only connection to the read models. */
export interface ReadStore extends ReadModels {
  /** Global position of the last event the read models reflect (0 before the first batch). */
  checkpoint(): Promise<number>;
  /** Whether the store answers: for /readyz. */
  ping(): Promise<boolean>;
  /** How many events a projection parked (parked-events.port.ts): for /readyz, which then says degraded. */
  parkedEvents(): Promise<number>;
  close(): Promise<void>;
}

/** The projection writers, each taking the batch handle first. */
export interface ProjectionWriters<Tx> {
  readonly users: UsersWriter<Tx>;
  readonly tokens: TokensWriter<Tx>;
  readonly apps: AppsWriter<Tx>;
  readonly folders: FoldersWriter<Tx>;
  readonly pages: PagesWriter<Tx>;
  readonly access: AccessWriter<Tx>;
  readonly threads: ThreadsWriter<Tx>;
  readonly invitations: InvitationsWriter<Tx>;
  readonly images: ImagesWriter<Tx>;
  readonly attachments: AttachmentsWriter<Tx>;
  readonly history: HistoryWriter<Tx>;
  readonly webhooks: WebhooksWriter<Tx>;
  readonly links: LinksWriter<Tx>;
  readonly trash: TrashWriter<Tx>;
  readonly shareLinks: ShareLinksWriter<Tx>;
  readonly storedBytes: StoredBytesWriter<Tx>;
  readonly groups: GroupsWriter<Tx>;
  readonly templates: TemplatesWriter<Tx>;
  readonly watches: WatchesWriter<Tx>;
  readonly notificationSettings: NotificationSettingsWriter<Tx>;
  readonly mentions: MentionsWriter<Tx>;
  readonly directory: DirectoryWriter<Tx>;
  readonly notifications: NotificationsWriter<Tx>;
  readonly audit: AuditWriter<Tx>;
}

/** The projector's connection: the only one that writes read models. */
export interface ProjectionStore<Tx> {
  readonly writers: ProjectionWriters<Tx>;
  /** The events a projection could not apply, kept with the read models. */
  readonly parked: ParkedEventsStore<Tx>;
  checkpoint(): Promise<number>;
  /**
   * Runs `work` with a fresh batch handle and moves the checkpoint to `position`, all or nothing: when `work`
   * throws, neither its effects nor the checkpoint are kept. Batches run one at a time. `position` null leaves
   * the checkpoint where it is (an operator's retry of a parked event).
   */
  applyBatch(position: number | null, work: (tx: Tx) => Promise<void>): Promise<void>;
  /**
   * Empties every read model and the checkpoint for a rebuild from the full history. A store may drop what
   * only queries need (secondary indexes) until endRebuild(), since bulk loading is faster without them.
   */
  beginRebuild(): Promise<void>;
  /** Restores what beginRebuild() set aside; the read models answer queries at full speed again. */
  endRebuild(): Promise<void>;
  close(): Promise<void>;
}
