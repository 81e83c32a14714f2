// The query API: every GET of /api/v1, served from the read models only. A request carrying
// X-Consistency-Token waits (bounded) until the read models have reached that position.
import type { Dependencies } from "../../shared/app/dependencies.ts";
import { CONSISTENCY_HEADER } from "../../shared/commands/commit.ts";
import { AppError } from "../../shared/errors/app-error.ts";
import type { App } from "../../shared/http/create-app.ts";
import { commentQueryRoutes } from "./routes/comments.routes.ts";
import { folderQueryRoutes } from "./routes/folders.routes.ts";
import { meRoutes } from "./routes/me.routes.ts";
import { pageQueryRoutes } from "./routes/pages.routes.ts";
import { shareQueryRoutes } from "./routes/shares.routes.ts";
import { tokenQueryRoutes } from "./routes/tokens.routes.ts";

export async function registerQueryApi(app: App, deps: Dependencies): Promise<void> {
  await app.register(
    async (api: App) => {
      api.addHook("onRequest", async (request) => {
        const token = request.headers[CONSISTENCY_HEADER];
        if (token === undefined || request.method !== "GET") return;
        if (typeof token !== "string" || !/^\d{1,15}$/.test(token)) {
          throw new AppError("validation_failed", `${CONSISTENCY_HEADER}: must be a value from an earlier write response`);
        }
        const reached = await deps.watcher.waitFor(Number(token), deps.config.CONSISTENCY_WAIT_MS);
        if (!reached) throw new AppError("consistency_timeout", "the read models have not caught up with that write yet; retry", { "retry-after": "1" });
      });
      meRoutes(api, deps);
      tokenQueryRoutes(api, deps);
      folderQueryRoutes(api, deps);
      pageQueryRoutes(api, deps);
      commentQueryRoutes(api, deps);
      shareQueryRoutes(api, deps);
    },
    { prefix: "/api/v1" },
  );
}
