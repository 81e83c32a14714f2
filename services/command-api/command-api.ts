// The command API: every POST, PATCH, PUT and DELETE of /api/v1. Appends events; answers once projected.
import type { Dependencies } from "../../shared/app/dependencies.ts";
import type { App } from "../../shared/http/create-app.ts";
import { commentCommandRoutes } from "./routes/comments.routes.ts";
import { folderCommandRoutes } from "./routes/folders.routes.ts";
import { invitationCommandRoutes } from "./routes/invitations.routes.ts";
import { pageCommandRoutes } from "./routes/pages.routes.ts";
import { shareCommandRoutes } from "./routes/shares.routes.ts";
import { tokenCommandRoutes } from "./routes/tokens.routes.ts";

export async function registerCommandApi(app: App, deps: Dependencies): Promise<void> {
  await app.register(
    async (api: App) => {
      tokenCommandRoutes(api, deps);
      folderCommandRoutes(api, deps);
      pageCommandRoutes(api, deps);
      commentCommandRoutes(api, deps);
      shareCommandRoutes(api, deps);
      invitationCommandRoutes(api, deps);
    },
    { prefix: "/api/v1" },
  );
}
