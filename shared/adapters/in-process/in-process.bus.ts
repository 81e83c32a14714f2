// Bus inside one process (the embedded default): per-group queues drained in order, retried with backoff. A
// group's queue outlives its members, so what it missed while none was live waits for the next one.
import type { Bus, BusHandler, BusMessage, BusSubscription } from "../../bus/bus.port.ts";

const SEEN_LIMIT = 100_000;

interface Member {
  readonly handler: BusHandler;
}

class Group {
  private readonly members: Member[] = [];
  private readonly queue: BusMessage[] = [];
  private next = 0;
  private draining = false;

  constructor(
    readonly subjects: ReadonlySet<string>,
    private readonly retryDelayMs: number,
  ) {}

  join(handler: BusHandler): Member {
    const member: Member = { handler };
    this.members.push(member);
    void this.drain();
    return member;
  }

  leave(member: Member): void {
    const index = this.members.indexOf(member);
    if (index >= 0) this.members.splice(index, 1);
  }

  leaveAll(): void {
    this.members.length = 0;
  }

  enqueue(message: BusMessage): void {
    this.queue.push(message);
    void this.drain();
  }

  /** One message at a time, round-robin over the live members; a failure is retried before moving on. */
  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      for (let message = this.queue[0]; message; message = this.queue[0]) {
        const member = this.members[this.next % Math.max(1, this.members.length)];
        if (!member) return;
        this.next += 1;
        try {
          await member.handler(message);
          this.queue.shift();
        } catch {
          await new Promise((resolve) => setTimeout(resolve, this.retryDelayMs));
        }
      }
    } finally {
      this.draining = false;
    }
  }
}

export class InProcessBus implements Bus {
  private readonly groups = new Map<string, Group>();
  private readonly seen = new Set<string>();

  private published: number | null = null;

  constructor(private readonly retryDelayMs = 50) {}

  async publishedPosition(): Promise<number | null> {
    return this.published;
  }

  async savePublishedPosition(position: number): Promise<void> {
    this.published = position;
  }

  async publish(messages: readonly BusMessage[]): Promise<void> {
    for (const message of messages) {
      if (this.seen.has(message.id)) continue;
      if (this.seen.size >= SEEN_LIMIT) this.seen.clear();
      this.seen.add(message.id);
      for (const group of this.groups.values()) if (group.subjects.has(message.subject)) group.enqueue(message);
    }
  }

  async subscribe(options: {
    subjects: readonly string[];
    group: string;
    handler: BusHandler;
  }): Promise<BusSubscription> {
    const group = this.groups.get(options.group) ?? new Group(new Set(options.subjects), this.retryDelayMs);
    this.groups.set(options.group, group);
    const member = group.join(options.handler);
    return {
      stop: async () => group.leave(member),
    };
  }

  async close(): Promise<void> {
    for (const group of this.groups.values()) group.leaveAll();
  }
}
