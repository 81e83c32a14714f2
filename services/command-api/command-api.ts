// The command API: every POST, PATCH, PUT and DELETE of /api/v1. Appends events; answers once projected.
import { watchingCommandRoutes } from "./routes/watching.routes.ts";
import { meCommandRoutes } from "./routes/me.routes.ts";
import type { App } from "../../shared/http/create-app.ts";
import { API_PREFIX } from "../../shared/http/locations.ts";
import { threadCommandRoutes } from "./routes/threads.routes.ts";
import { startOrphanBlobSweep } from "../../shared/blobs/orphan-blobs.ts";
import { imageCommandRoutes } from "./routes/images.routes.ts";
import { attachmentCommandRoutes } from "./routes/attachments.routes.ts";
import { importCommandRoutes } from "./routes/imports.routes.ts";
import { folderCommandRoutes } from "./routes/folders.routes.ts";
import { internalRoutes } from "./routes/internal.routes.ts";
import { invitationCommandRoutes } from "./routes/invitations.routes.ts";
import { pageCommandRoutes } from "./routes/pages.routes.ts";
import { pageDuplicateRoutes } from "./routes/page-duplicates.routes.ts";
import { trashCommandRoutes } from "./routes/trash.routes.ts";
import { startTrashPurge } from "../../shared/trash/purge.ts";
import { shareCommandRoutes } from "./routes/shares.routes.ts";
import { groupCommandRoutes } from "./routes/groups.routes.ts";
import { tokenCommandRoutes } from "./routes/tokens.routes.ts";
import { webhookCommandRoutes } from "./routes/webhooks.routes.ts";
import type { CommandApiPorts } from "./command-api-ports.ts";
import { shareLinkCommandRoutes } from "./routes/share-links.routes.ts";
import { notificationCommandRoutes } from "./routes/notifications.routes.ts";

export async function registerCommandApi(app: App, ports: CommandApiPorts): Promise<void> {
  await app.register(
    async (api: App) => {
      tokenCommandRoutes(api, ports);
      meCommandRoutes(api, ports);
      folderCommandRoutes(api, ports);
      pageCommandRoutes(api, ports);
      pageDuplicateRoutes(api, ports);
      trashCommandRoutes(api, ports);
      threadCommandRoutes(api, ports);
      shareCommandRoutes(api, ports);
      groupCommandRoutes(api, ports);
      invitationCommandRoutes(api, ports);
      await imageCommandRoutes(api, ports);
      await attachmentCommandRoutes(api, ports);
      await importCommandRoutes(api, ports);
      webhookCommandRoutes(api, ports, ports.webhooks);
      shareLinkCommandRoutes(api, ports);
      watchingCommandRoutes(api, ports);
      notificationCommandRoutes(api, ports);
    },
    { prefix: API_PREFIX },
  );
  internalRoutes(app, ports);
  // Bytes an interrupted upload left without a record: swept once the server is up, then hourly.
  let sweep: { stop(): Promise<void> } | null = null;
  // Deleted pages past the trash's retention: purged once the server is up, then hourly.
  let purge: { stop(): Promise<void> } | null = null;
  app.addHook("onReady", async () => {
    sweep = startOrphanBlobSweep(ports);
    purge = startTrashPurge(ports);
  });
  app.addHook("onClose", async () => {
    await sweep?.stop();
    await purge?.stop();
    await ports.notes.close();
  });
}
