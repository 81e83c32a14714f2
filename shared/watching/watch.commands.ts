// Watching and unwatching a page or folder: anyone who can view it may, for themselves only (404 for what they
// cannot view). Settings: each user their own.
import { deciderCommandHandler } from "../commands/decider-command-handler.ts";
import type { Actor } from "../commands/guarded-command.ts";
import type { CommandContext } from "../commands/command-context.ts";
import type { WritePorts } from "../commands/write-ports.ts";
import type { Unsubscribe } from "../notifications/unsubscribe-token.ts";
import { userIdSchema, type UserId } from "../kernel/ids.ts";
import { viewable } from "./watch-status.ts";
import {
  notificationSettingsDecider,
  notificationSettingsEventSchemas,
  notificationSettingsStream,
  type NotificationSettingsChange,
} from "./notification-settings.decider.ts";
import type { NotificationSettings } from "./notification-settings.view.ts";
import { watchDecider, watchEventSchemas, watchStream, type WatchTarget } from "./watch.decider.ts";
import type { WatchedKind } from "./watches.view.ts";

const watchCommands = deciderCommandHandler({
  decider: watchDecider,
  streamOf: (target: WatchTarget) => watchStream(target),
  eventSchemas: watchEventSchemas,
});
const settingsCommands = deciderCommandHandler({
  decider: notificationSettingsDecider,
  streamOf: (userId: UserId) => notificationSettingsStream(userId),
  eventSchemas: notificationSettingsEventSchemas,
});

export async function setWatch(
  ports: WritePorts,
  actor: Actor,
  kind: WatchedKind,
  entityId: string,
  watching: boolean,
): Promise<{ position: number | null }> {
  await viewable(ports.views, actor.principal, kind, entityId);
  const target: WatchTarget = { kind, entityId, userId: userIdSchema.parse(actor.principal.user.id) };
  return watchCommands.handle(ports.eventStore, target, { type: "SetWatch", target, watching }, actor.context);
}

export async function changeNotificationSettings(
  ports: WritePorts,
  actor: Actor,
  settings: NotificationSettingsChange,
): Promise<{ position: number | null; settings: NotificationSettings }> {
  const userId = userIdSchema.parse(actor.principal.user.id);
  const { position, state } = await settingsCommands.handle(
    ports.eventStore,
    userId,
    { type: "ChangeNotificationSettings", userId, settings },
    actor.context,
  );
  return { position, settings: state };
}

/**
 * An unsubscribe link was followed: the emails it names stop (their kinds go to the inbox only). The token was
 * checked by the caller; the answer is the position of the change, or null when there was nothing to stop.
 */
export async function stopEmails(
  ports: Pick<WritePorts, "eventStore">,
  unsubscribe: Unsubscribe,
  context: CommandContext,
): Promise<{ position: number | null }> {
  const { userId, scope } = unsubscribe;
  return settingsCommands.handle(ports.eventStore, userId, { type: "StopEmails", userId, scope }, context);
}
