// Which events of $all belong to the application's global log. The server-side filter does most of it (system
// events out, or only a namespace's streams), but a stream-prefix filter cannot also filter by type: a namespace's
// own streams hold system events too, such as the `$streamDeleted` a tombstone writes (not JSON, it would stop a
// projector reading it), and a link read without its event names nothing of ours.

/** The part of the client's resolved event this decides on. */
export interface ReadEvent {
  readonly event?: { readonly type: string } | undefined;
}

/** Whether an event read from $all is the application's: present, and not a system event (`$`-type). */
export function isApplicationEvent(resolved: ReadEvent): boolean {
  const event = resolved.event;
  return event !== undefined && !event.type.startsWith("$");
}
