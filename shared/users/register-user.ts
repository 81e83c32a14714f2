// First sight of a valid session registers the user (one account per email, through a reservation stream);
// later sessions keep the profile's name and picture in step with the claims.
import { AppError } from "../errors/app-error.ts";
import { StreamConflictError } from "../event-store/event-store.port.ts";
import type { Dependencies } from "../app/dependencies.ts";
import type { SessionClaims } from "../auth/session-verifier.ts";
import { awaitProjection } from "../commands/commit.ts";
import type { CommandContext } from "../commands/command-context.ts";
import { runCommand, toNewEvents } from "../commands/run-command.ts";
import { eventGuard, parseRecorded } from "../events.ts";
import { userIdSchema } from "../kernel/ids.ts";
import { emailReservationStream, normalizeEmail, userDecider, userEventSchemas, userStream, type UserEvent } from "./user.decider.ts";
import type { UserRecord } from "./users.view.ts";

const isUserEvent = eventGuard<UserEvent>(userEventSchemas);

async function reserveEmail(deps: Dependencies, email: string, context: CommandContext): Promise<void> {
  const stream = emailReservationStream(email);
  try {
    await deps.eventStore.append(stream, toNewEvents([{ type: "EmailReserved", data: { email, userId: context.actorId } }], context), "no_stream");
  } catch (error) {
    if (!(error instanceof StreamConflictError)) throw error;
    const [first] = (await deps.eventStore.read(stream)).events;
    const reservation = first ? parseRecorded(first).event : null;
    if (reservation?.type === "EmailReserved" && reservation.data.userId === context.actorId) return;
    throw new AppError("conflict", "this email address already belongs to another account");
  }
}

/**
 * Users already seen by this process, whose profile matched their session's claims: a browser's every request
 * need not look its user up again. Entries are replaced whenever the claims differ, so they never go stale
 * with respect to what the session says.
 */
const seen = new WeakMap<Dependencies, Map<string, UserRecord>>();
const SEEN_LIMIT = 10_000;

function remember(deps: Dependencies, user: UserRecord): UserRecord {
  const users = seen.get(deps) ?? new Map<string, UserRecord>();
  if (users.size >= SEEN_LIMIT) users.clear();
  users.set(user.id, user);
  seen.set(deps, users);
  return user;
}

export async function ensureRegistered(deps: Dependencies, claims: SessionClaims, correlationId: string): Promise<UserRecord> {
  const image = claims.picture ?? null;
  const cached = seen.get(deps)?.get(claims.sub);
  if (cached && cached.name === claims.name && cached.image === image) return cached;
  const user = await register(deps, claims, correlationId);
  // Hooks run at a user's first request to each process, not only at registration, so one interrupted by a
  // crash completes later; they are idempotent.
  const context: CommandContext = { actorId: userIdSchema.parse(user.id), correlationId, now: deps.clock() };
  for (const hook of deps.registrationHooks) await hook(user, context);
  return remember(deps, user);
}

async function register(deps: Dependencies, claims: SessionClaims, correlationId: string): Promise<UserRecord> {
  const userId = userIdSchema.parse(claims.sub);
  const context: CommandContext = { actorId: userId, correlationId, now: deps.clock() };
  const image = claims.picture ?? null;
  const known = await deps.readStore.users.get(userId);
  if (known) {
    if (known.name === claims.name && known.image === image) return known;
    const result = await runCommand(deps.eventStore, userStream(userId), userDecider, isUserEvent, { type: "ChangeProfile", userId, name: claims.name, image }, context);
    await awaitProjection(deps, result.position);
    return { ...known, name: claims.name, image };
  }
  const email = normalizeEmail(claims.email);
  await reserveEmail(deps, email, context);
  const result = await runCommand(
    deps.eventStore,
    userStream(userId),
    userDecider,
    isUserEvent,
    { type: "RegisterUser", userId, email, name: claims.name, image },
    context,
  );
  await awaitProjection(deps, result.position);
  return (await deps.readStore.users.get(userId)) ?? { id: userId, email, name: claims.name, image, createdAt: context.now.toISOString() };
}
