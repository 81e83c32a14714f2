// Routes each stored event to the projection that owns its type; the exhaustive switch makes a new event
// type fail to compile until some projection handles it.
import type { DomainEvent, StoredEvent } from "../../../shared/events.ts";
import type { ReadModels } from "../../../shared/read-store/read-store.port.ts";
import { projectThread } from "./comments.projection.ts";
import { projectAccess } from "./access.projection.ts";
import { projectFolder } from "./folders.projection.ts";
import { projectInvitation } from "./invitations.projection.ts";
import { projectPage } from "./pages.projection.ts";
import { projectToken } from "./tokens.projection.ts";
import { projectUser } from "./users.projection.ts";

function narrow<E extends DomainEvent>(stored: StoredEvent, event: E): StoredEvent<E> {
  return { ...stored, event };
}

export async function project(stored: StoredEvent, models: ReadModels): Promise<void> {
  const event = stored.event;
  switch (event.type) {
    case "UserRegistered":
    case "UserProfileChanged":
    case "EmailReserved":
      return projectUser(narrow(stored, event), models);
    case "InvitationSlotTaken":
      return; // bookkeeping for the command side only: no read model shows it
    case "TokenCreated":
    case "TokenUsed":
    case "TokenRevoked":
      return projectToken(narrow(stored, event), models);
    case "FolderCreated":
      return projectFolder(narrow(stored, event), models);
    case "PageCreated":
    case "PageRenamed":
    case "PageIconChanged":
    case "PageContentReplaced":
    case "PageDeleted":
      return projectPage(narrow(stored, event), models);
    case "ThreadOpened":
    case "CommentAdded":
    case "CommentEdited":
    case "CommentDeleted":
    case "ThreadResolved":
    case "ThreadReopened":
      return projectThread(narrow(stored, event), models);
    case "AccessGranted":
    case "AccessRevoked":
    case "WorkspaceMemberAdded":
    case "WorkspaceMemberRoleChanged":
    case "WorkspaceMemberRemoved":
      return projectAccess(narrow(stored, event), models);
    case "InvitationQueued":
    case "InvitationPermissionChanged":
    case "InvitationResent":
    case "InvitationAccepted":
    case "InvitationExpired":
    case "InvitationCancelled":
    case "InvitationDelivered":
    case "InvitationDeliveryStarted":
      return projectInvitation(narrow(stored, event), models);
    default: {
      const unhandled: never = event;
      throw new Error(`no projection for ${JSON.stringify(unhandled)}`);
    }
  }
}
