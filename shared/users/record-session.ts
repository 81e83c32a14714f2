// What the write side does when a verified session is seen: the first sight of a user registers them (one
// account per email, through a reservation stream); later sessions keep the profile's name and picture in step
// with the claims; and the reactions to registration (accepting that address's pending invitations) run.
import type { SessionClaims } from "../auth/session-verifier.ts";
import type { CommandContext } from "../commands/command-context.ts";
import { toNewEvents } from "../commands/new-events.ts";
import { AppError } from "../errors/app-error.ts";
import { StreamConflictError, type EventStore } from "../event-store/event-store.port.ts";
import { eventGuard, parseRecorded } from "../events.ts";
import { userIdSchema, type UserId } from "../kernel/ids.ts";
import type { ReadModels } from "../read-store/read-store.port.ts";
import { userCommands } from "./user.commands.ts";
import {
  emailReservationEventSchemas,
  emailReservationStream,
  normalizeEmail,
  reservationHolder,
  sessionBeforeErasure,
  type EmailReservationEvent,
} from "./user.decider.ts";
import type { UserRecord } from "./users.view.ts";

/**
 * A reaction to a user's sighting, e.g. accepting the invitations sent to that address. Reactions run at each
 * user's first sight by a process, not only at registration, so one interrupted by a crash completes later:
 * they must be idempotent. Each answers the position of the last event it appended, or null.
 */
export type RegistrationHook = (user: UserRecord, context: CommandContext) => Promise<number | null>;

export interface SessionPorts {
  readonly eventStore: EventStore;
  readonly views: Pick<ReadModels, "users">;
  readonly registrationHooks: readonly RegistrationHook[];
  /** The id of the account a subject signs in to once `erasures` (1 or more) of its accounts were erased. */
  readonly laterAccountId: (subject: string, erasures: number) => string;
}

/** The context of a sighting: the acting account is known once the session's subject is resolved to it. */
export type SightingContext = Omit<CommandContext, "actorId">;

/**
 * The account a session signs in to: its subject's own id (`sub`, the user id) until that account is erased; after
 * an erasure, a new account under a new id that owns nothing of before, found from the subject and the number of
 * its accounts erased (each read from its own stream in the log). A session issued before an erasure it meets
 * is refused: the browser that asked for the erasure, or a copy of its cookie, must sign in again.
 */
async function accountOf(ports: SessionPorts, claims: SessionClaims): Promise<UserId> {
  const subject = userIdSchema.parse(claims.sub);
  if (await ports.views.users.get(subject)) return subject;
  const issuedAt = claims.iat === undefined ? null : claims.iat * 1000;
  for (let erasures = 0; ; erasures += 1) {
    const userId = erasures === 0 ? subject : userIdSchema.parse(ports.laterAccountId(claims.sub, erasures));
    const account = await userCommands.load(ports.eventStore, userId);
    if (account.registered || account.erasedAt === undefined) return userId;
    // Checked before anything is reserved: the address may belong to the subject's new account by now.
    if (issuedAt === null || issuedAt <= Date.parse(account.erasedAt)) throw sessionBeforeErasure();
  }
}

const isReservationEvent = eventGuard<EmailReservationEvent>(emailReservationEventSchemas);
const addressTaken = () => new AppError("conflict", "this email address already belongs to another account");

/** Takes the address for the acting user unless another account holds it (an erased account's is free again). */
async function reserveEmail(eventStore: EventStore, email: string, context: CommandContext): Promise<void> {
  const stream = emailReservationStream(email);
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const { revision, events } = await eventStore.read(stream);
    const holder = reservationHolder(
      events.map((recorded) => parseRecorded(recorded).event).filter(isReservationEvent),
    );
    if (holder === context.actorId) return;
    if (holder !== null) throw addressTaken();
    try {
      await eventStore.append(
        stream,
        toNewEvents([{ type: "EmailReserved", data: { email, userId: context.actorId } }], context),
        revision < 0 ? "no_stream" : revision,
      );
      return;
    } catch (error) {
      if (!(error instanceof StreamConflictError)) throw error;
    }
  }
  throw addressTaken();
}

const later = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.max(a, b));

/**
 * Registers or updates the session's user and runs the reactions; answers the account's id and the position of
 * the last event appended, or null.
 */
export async function recordSession(
  ports: SessionPorts,
  claims: SessionClaims,
  sighting: SightingContext,
): Promise<{ userId: UserId; position: number | null }> {
  const userId = await accountOf(ports, claims);
  const context: CommandContext = { ...sighting, actorId: userId };
  const image = claims.picture ?? null;
  const known = await ports.views.users.get(userId);
  let position: number | null = null;
  let user: UserRecord;
  if (known) {
    // The address is the account's identity for sharing (invitations are accepted by it, one account per
    // address): a session claiming another one is refused rather than silently taken for the same person.
    if (known.email !== normalizeEmail(claims.email)) {
      throw new AppError(
        "conflict",
        "this session's email differs from your account's; sign in with the address your account was registered with",
      );
    }
    if (known.name !== claims.name || known.image !== image) {
      position = (
        await userCommands.handle(
          ports.eventStore,
          userId,
          { type: "ChangeProfile", userId, name: claims.name, image },
          context,
        )
      ).position;
    }
    user = { ...known, name: claims.name, image };
  } else {
    const email = normalizeEmail(claims.email);
    await reserveEmail(ports.eventStore, email, context);
    const result = await userCommands.handle(
      ports.eventStore,
      userId,
      {
        type: "RegisterUser",
        userId,
        email,
        name: claims.name,
        image,
        sessionIssuedAt: claims.iat === undefined ? null : claims.iat * 1000,
      },
      context,
    );
    position = result.position;
    user = { id: userId, email, name: claims.name, image, createdAt: context.now.toISOString() };
  }
  for (const hook of ports.registrationHooks) position = later(position, await hook(user, context));
  return { userId, position };
}
