// The command API on its own; a projector must run beside it (npm run start:projector) for writes to answer.
import { startHttpService } from "../http-service.ts";
import { runUntilSignalled } from "../lifecycle.ts";
import { loadConfig } from "../../shared/config/config.ts";
import { registerCommandApi } from "./command-api.ts";

await runUntilSignalled("command-api", () => startHttpService("command-api", loadConfig(), registerCommandApi));
