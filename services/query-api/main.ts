// The query API on its own: serves every GET from the read models the projector keeps.
import { startHttpService } from "../http-service.ts";
import { runUntilSignalled } from "../lifecycle.ts";
import { loadConfig } from "../../shared/config/config.ts";
import { registerQueryApi } from "./query-api.ts";

await runUntilSignalled("query-api", () => startHttpService("query-api", loadConfig(), registerQueryApi));
