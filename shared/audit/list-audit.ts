// Reading a workspace's audit trail (GET /audit): its owner and its admins may; anyone else is told the trail does
// not exist (404), as for a workspace they cannot see. Newest first, filtered by actor, kind and instants.
import { z } from "zod";
import { managesWorkspace } from "../groups/visible-group.ts";
import { AppError } from "../errors/app-error.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import type { AuditKind } from "./audit-entry.ts";
import { toAuditEntryResource, type AuditEntryResource } from "./audit.resource.ts";
import type { AuditKey } from "./audit.view.ts";

export interface AuditListRequest {
  /** The workspace (its owner's id); the caller's own when absent. */
  readonly workspaceId?: string;
  readonly actorId?: string;
  readonly kind?: AuditKind;
  readonly after?: string;
  readonly before?: string;
  readonly cursor?: string;
  readonly limit: number;
}

const cursorSchema = z.object({ a: z.iso.datetime(), p: z.number().int().nonnegative() });

const encodeAuditCursor = (key: AuditKey): string =>
  Buffer.from(JSON.stringify({ a: key.at, p: key.position })).toString("base64url");

function decodeAuditCursor(cursor: string | undefined): AuditKey | null {
  if (cursor === undefined) return null;
  try {
    const { a, p } = cursorSchema.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
    return { at: a, position: p };
  } catch {
    throw new AppError("validation_failed", "cursor: not a cursor returned by this API");
  }
}

export async function listAudit(
  views: Pick<ReadModels, "access" | "audit">,
  callerId: string,
  request: AuditListRequest,
): Promise<{ data: AuditEntryResource[]; nextCursor: string | null }> {
  const workspaceId = request.workspaceId ?? callerId;
  const from = decodeAuditCursor(request.cursor);
  const context = await views.access.contextFor(callerId);
  if (!managesWorkspace(context, workspaceId)) throw new AppError("not_found", "workspace not found");
  const rows = await views.audit.list({
    workspaceId,
    actorId: request.actorId ?? null,
    kind: request.kind ?? null,
    after: request.after ?? null,
    before: request.before ?? null,
    from,
    limit: request.limit + 1,
  });
  const kept = rows.slice(0, request.limit);
  const last = kept.at(-1);
  const nextCursor =
    rows.length > request.limit && last !== undefined
      ? encodeAuditCursor({ at: last.at, position: last.position })
      : null;
  return { data: kept.map(toAuditEntryResource), nextCursor };
}
