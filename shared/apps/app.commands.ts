// App commands bound once: the app decider on stream app-<grant id>, registrations on oauth-client-<client id>.
import { deciderCommandHandler } from "../commands/decider-command-handler.ts";
import {
  appDecider,
  appEventSchemas,
  appStream,
  oauthClientDecider,
  oauthClientStream,
  type AppId,
} from "./app.decider.ts";

export const appCommands = deciderCommandHandler({
  decider: appDecider,
  streamOf: (id: AppId) => appStream(id),
  eventSchemas: appEventSchemas,
});
export const oauthClientCommands = deciderCommandHandler({
  decider: oauthClientDecider,
  streamOf: (id: string) => oauthClientStream(id),
  eventSchemas: appEventSchemas,
});
