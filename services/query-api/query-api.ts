// The query API: every GET of /api/v1, served from the read models only; it holds no event store. A request
// carrying X-Consistency-Token is authenticated first, then waits (bounded) until the read models have
// reached that position; a token beyond the event log's head is refused at once.
import { notificationQueryRoutes } from "./routes/notifications.routes.ts";
import { auditQueryRoutes } from "./routes/audit.routes.ts";
import { AppError } from "../../shared/errors/app-error.ts";
import type { App } from "../../shared/http/create-app.ts";
import { API_PREFIX } from "../../shared/http/locations.ts";
import { CONSISTENCY_HEADER, positionOfToken, positionTokenSchema } from "../../shared/position.ts";
import { threadQueryRoutes } from "./routes/threads.routes.ts";
import { exportQueryRoutes } from "./routes/exports.routes.ts";
import { folderQueryRoutes } from "./routes/folders.routes.ts";
import { imageQueryRoutes } from "./routes/images.routes.ts";
import { attachmentQueryRoutes } from "./routes/attachments.routes.ts";
import { meRoutes } from "./routes/me.routes.ts";
import { ChangeFeedHub } from "../../shared/history/change-feed.ts";
import { changeFeedRoutes } from "./routes/changes.routes.ts";
import { historyQueryRoutes } from "./routes/history.routes.ts";
import { diffQueryRoutes } from "./routes/diff.routes.ts";
import { pageQueryRoutes } from "./routes/pages.routes.ts";
import { watchingQueryRoutes } from "./routes/watching.routes.ts";
import { userQueryRoutes } from "./routes/users.routes.ts";
import { backlinkQueryRoutes } from "./routes/backlinks.routes.ts";
import { trashQueryRoutes } from "./routes/trash.routes.ts";
import { searchQueryRoutes } from "./routes/search.routes.ts";
import { shareQueryRoutes } from "./routes/shares.routes.ts";
import { groupQueryRoutes } from "./routes/groups.routes.ts";
import { tokenQueryRoutes } from "./routes/tokens.routes.ts";
import { appQueryRoutes } from "./routes/apps.routes.ts";
import { webhookQueryRoutes } from "./routes/webhooks.routes.ts";
import { shareLinkQueryRoutes } from "./routes/share-links.routes.ts";
import { publicPageErrors, sharedPageRoutes } from "./routes/shared-pages.routes.ts";
import type { QueryApiPorts } from "./query-api-ports.ts";

async function awaitConsistencyToken(ports: QueryApiPorts, header: string | string[] | undefined): Promise<void> {
  if (header === undefined) return;
  const parsed = positionTokenSchema.safeParse(header);
  if (!parsed.success)
    throw new AppError(
      "validation_failed",
      `${CONSISTENCY_HEADER}: must be the value of that header from an earlier write response`,
    );
  const position = positionOfToken(parsed.data);
  if (position <= (await ports.projection.current())) return;
  if (position > (await ports.writeSide.headPosition())) {
    throw new AppError("validation_failed", `${CONSISTENCY_HEADER}: names a position no write has reached`);
  }
  if (!(await ports.projection.waitFor(position, ports.consistencyWaitMs))) {
    throw new AppError("consistency_timeout", "the read models have not caught up with that write yet; retry", {
      "retry-after": "1",
    });
  }
}

export async function registerQueryApi(app: App, ports: QueryApiPorts): Promise<void> {
  app.addHook("onClose", async () => ports.pool.close());
  await app.register(
    async (api: App) => {
      // preHandler runs after the authentication hook (onRequest) and validation: a stranger is refused at once.
      api.addHook("preHandler", async (request) => {
        if (request.method === "GET") await awaitConsistencyToken(ports, request.headers[CONSISTENCY_HEADER]);
      });
      meRoutes(api);
      tokenQueryRoutes(api, ports.views);
      appQueryRoutes(api, ports.views);
      webhookQueryRoutes(api, ports.views, ports.webhookDeliveries);
      folderQueryRoutes(api, ports.views);
      pageQueryRoutes(api, ports.views, ports);
      backlinkQueryRoutes(api, ports.views);
      trashQueryRoutes(api, ports);
      historyQueryRoutes(api, ports.views);
      diffQueryRoutes(api, ports);
      const hub = new ChangeFeedHub(ports.views, ports.projection, {
        maxPerUser: ports.changeFeed.maxPerUser,
        clock: ports.clock,
      });
      changeFeedRoutes(api, { hub, writeSide: ports.writeSide, heartbeatMs: ports.changeFeed.heartbeatMs });
      searchQueryRoutes(api, ports.views);
      threadQueryRoutes(api, ports.views);
      shareQueryRoutes(api, ports.views, ports.clock);
      groupQueryRoutes(api, ports.views);
      imageQueryRoutes(api, ports);
      attachmentQueryRoutes(api, ports);
      exportQueryRoutes(api, ports);
      shareLinkQueryRoutes(api, ports.views);
      watchingQueryRoutes(api, ports.views);
      userQueryRoutes(api, ports.views);
      notificationQueryRoutes(api, ports.views, ports);
      auditQueryRoutes(api, ports.views);
    },
    { prefix: API_PREFIX },
  );
  await app.register(async (publicPages: App) => {
    publicPages.setErrorHandler(publicPageErrors);
    sharedPageRoutes(publicPages, { ...ports, ...ports.publicPages });
  });
  app.addHook("onClose", async () => {
    await ports.publicPages.viewCounter.flush();
  });
}
