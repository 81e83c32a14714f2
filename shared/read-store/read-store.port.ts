// The read-store port: one read model per query, plus the projector's atomic batch-and-checkpoint.
import type { AccessView } from "../access/access.view.ts";
import type { ThreadsView } from "../comments/threads.view.ts";
import type { FoldersView } from "../folders/folders.view.ts";
import type { PagesView } from "../pages/pages.view.ts";
import type { InvitationsView } from "../sharing/invitations.view.ts";
import type { TokensView } from "../tokens/tokens.view.ts";
import type { UsersView } from "../users/users.view.ts";

export interface ReadModels {
  readonly users: UsersView;
  readonly tokens: TokensView;
  readonly folders: FoldersView;
  readonly pages: PagesView;
  readonly access: AccessView;
  readonly threads: ThreadsView;
  readonly invitations: InvitationsView;
}

export interface ReadStore extends ReadModels {
  /** Global position of the last event the read models reflect. */
  checkpoint(): Promise<number>;
  /**
   * Runs the projector's work for a batch and moves the checkpoint to `position`, atomically where the store
   * allows it. Only the projector calls this, on a read store of its own.
   */
  applyBatch(position: number, work: () => Promise<void>): Promise<void>;
  /**
   * Empties every read model and the checkpoint for a rebuild from the full history. A store may drop what
   * only queries need (secondary indexes) until endRebuild(), since bulk loading is faster without them.
   */
  beginRebuild(): Promise<void>;
  /** Restores what beginRebuild() set aside; the read models answer queries at full speed again. */
  endRebuild(): Promise<void>;
  /** Whether the store answers: for /readyz. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
