// Wiring over the embedded SQLite stores, shared by the all-in-one process and the single-service entries:
// which adapter each port gets. The command side owns the event store; a query side is given only views.
import { join } from "node:path";
import type { Logger } from "pino";
import { InProcessBus } from "../shared/adapters/in-process/in-process.bus.ts";
import { NatsBus } from "../shared/adapters/nats/nats.bus.ts";
import { OutboxMailer } from "../shared/adapters/outbox/outbox.mailer.ts";
import type { Bus } from "../shared/bus/bus.port.ts";
import { SmtpMailer } from "../shared/adapters/smtp/smtp.mailer.ts";
import type { Mailer } from "../shared/mail/mailer.port.ts";
import { InProcessWriteSide } from "../shared/adapters/in-process/in-process.write-side.ts";
import type { SqliteEventStore } from "../shared/adapters/sqlite/sqlite.event-store.ts";
import type { SqliteReadStore } from "../shared/adapters/sqlite/sqlite.read-store.ts";
import { Authenticator } from "../shared/auth/authenticator.ts";
import { sessionKeyFor } from "../shared/auth/session-key.ts";
import { SessionVerifier } from "../shared/auth/session-verifier.ts";
import type { WriteSide } from "../shared/auth/write-side.port.ts";
import type { Config } from "../shared/config/config.ts";
import type { ProjectionProgress } from "../shared/read-store/checkpoint-watcher.ts";
import type { ReadModels } from "../shared/read-store/read-store.port.ts";
import { acceptInvitationsOnRegistration } from "../shared/sharing/accept-invitations.ts";
import type { CommandApiPorts } from "./command-api/command-api.ts";
import type { QueryApiPorts } from "./query-api/query-api.ts";

export type Clock = () => Date;

/** The write side of a process that holds the event store: registration runs its reactions in process. */
export function inProcessWriteSide(stores: { eventStore: SqliteEventStore; readStore: SqliteReadStore }, logger: Logger, clock: Clock): InProcessWriteSide {
  const { eventStore, readStore: views } = stores;
  return new InProcessWriteSide({ eventStore, views, clock, registrationHooks: [acceptInvitationsOnRegistration({ eventStore, views, logger })] });
}

export function authenticatorFor(
  config: Config,
  ports: { views: ReadModels; writeSide: WriteSide; projection: ProjectionProgress; logger: Logger; clock: Clock },
  options: { createSessionSecret: boolean },
): Authenticator {
  const sessions = new SessionVerifier(sessionKeyFor(config, { createInDataDir: options.createSessionSecret }));
  return new Authenticator({ ...ports, sessions, consistencyWaitMs: config.CONSISTENCY_WAIT_MS });
}

export function commandApiPorts(config: Config, stores: { eventStore: SqliteEventStore; readStore: SqliteReadStore }, projection: ProjectionProgress, logger: Logger, clock: Clock): CommandApiPorts {
  return { eventStore: stores.eventStore, views: stores.readStore, projection, clock, logger, consistencyWaitMs: config.CONSISTENCY_WAIT_MS };
}

/** The bus: NATS JetStream when NATS_URL is set, otherwise in this process only. */
export async function busFor(config: Config, name: string): Promise<Bus> {
  return config.NATS_URL ? NatsBus.connect(config.NATS_URL, { name }) : new InProcessBus();
}

/** The mailer: SMTP when SMTP_URL is set, otherwise .eml files in DATA_DIR/outbox. */
export function mailerFor(config: Config): Mailer {
  return config.SMTP_URL ? SmtpMailer.fromUrl(config.SMTP_URL) : new OutboxMailer(join(config.DATA_DIR, "outbox"));
}

/** Where links in emails point: PUBLIC_BASE_URL, or the server's own address when its port is fixed. */
export function publicBaseUrl(config: Config): string | null {
  return config.PUBLIC_BASE_URL ?? (config.PORT === 0 ? null : `http://${config.HOST}:${config.PORT}`);
}

export function queryApiPorts(config: Config, views: ReadModels, projection: ProjectionProgress, writeSide: WriteSide, clock: Clock): QueryApiPorts {
  return { views, projection, writeSide, clock, consistencyWaitMs: config.CONSISTENCY_WAIT_MS };
}
