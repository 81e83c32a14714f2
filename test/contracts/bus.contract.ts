// The Bus contract: every adapter (in-process, NATS JetStream, ...) must pass these.
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Bus, BusMessage } from "../../shared/bus/bus.port.ts";
import { until } from "../support/poll.ts";

const message = (subject: string, n: number): BusMessage => ({
  id: randomUUID(),
  subject,
  data: { n },
  metadata: { correlationId: "c" },
});
const record = (into: number[]) => async (m: BusMessage) => void into.push((m.data as { n: number }).n);

export function busContract(name: string, factory: () => Promise<{ bus: Bus; cleanup: () => Promise<void> }>): void {
  describe(`Bus contract: ${name}`, () => {
    let bus: Bus;
    let cleanup: () => Promise<void>;
    // Subjects and groups are unique per test so the suite also runs against a shared server.
    let subject: string;
    let other: string;
    beforeEach(async () => {
      ({ bus, cleanup } = await factory());
      subject = `Tested${randomUUID().slice(0, 8)}`;
      other = `Other${randomUUID().slice(0, 8)}`;
    });
    afterEach(async () => {
      await cleanup();
    });

    it("delivers the subscribed subjects in publishing order, and nothing else", async () => {
      const got: unknown[] = [];
      await bus.subscribe({
        subjects: [subject],
        group: `g-${randomUUID()}`,
        handler: async (m) => void got.push(m.data),
      });
      await bus.publish([message(subject, 1), message(other, 2), message(subject, 3)]);
      await bus.publish([message(subject, 4)]);
      await until(() => got.length >= 3, "three messages");
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(got).toEqual([{ n: 1 }, { n: 3 }, { n: 4 }]);
    });

    it("hands a message's trace context to its consumer", async () => {
      const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
      const got: BusMessage[] = [];
      await bus.subscribe({ subjects: [subject], group: `g-${randomUUID()}`, handler: async (m) => void got.push(m) });
      const traced = message(subject, 1);
      await bus.publish([{ ...traced, metadata: { ...traced.metadata, traceparent } }, message(subject, 2)]);
      await until(() => got.length >= 2, "two messages");
      expect(got.map((m) => m.metadata["traceparent"])).toEqual([traceparent, undefined]);
    });

    it("keeps the publisher's position: the last one saved is the one read back", async () => {
      const start = Math.floor(Math.random() * 1_000_000) + 1;
      await bus.savePublishedPosition(start);
      expect(await bus.publishedPosition()).toBe(start);
      await bus.savePublishedPosition(start + 7);
      expect(await bus.publishedPosition()).toBe(start + 7);
    });

    it("delivers a message published twice with the same id once to each group", async () => {
      const first: number[] = [];
      const second: number[] = [];
      await bus.subscribe({ subjects: [subject], group: `g-${randomUUID()}`, handler: record(first) });
      await bus.subscribe({ subjects: [subject], group: `g-${randomUUID()}`, handler: record(second) });
      const once = message(subject, 1);
      await bus.publish([once]);
      await bus.publish([once, message(subject, 2)]);
      await until(() => first.length >= 2 && second.length >= 2, "two messages in each group");
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(first).toEqual([1, 2]);
      expect(second).toEqual([1, 2]);
    });

    it("redelivers a message whose handler failed until it succeeds", async () => {
      let attempts = 0;
      const done: unknown[] = [];
      await bus.subscribe({
        subjects: [subject],
        group: `g-${randomUUID()}`,
        handler: async (m) => {
          attempts += 1;
          if (attempts < 3) throw new Error("mail server down");
          done.push(m.data);
        },
      });
      await bus.publish([message(subject, 1)]);
      await until(() => done.length === 1, "a successful attempt");
      expect(attempts).toBe(3);
    });

    it("shares a group's messages among its members and gives every group all of them", async () => {
      const group = `g-${randomUUID()}`;
      const first: number[] = [];
      const second: number[] = [];
      const audit: number[] = [];
      await bus.subscribe({ subjects: [subject], group, handler: record(first) });
      await bus.subscribe({ subjects: [subject], group, handler: record(second) });
      await bus.subscribe({ subjects: [subject], group: `audit-${randomUUID()}`, handler: record(audit) });
      await bus.publish(Array.from({ length: 20 }, (_, i) => message(subject, i)));
      await until(() => first.length + second.length >= 20 && audit.length >= 20, "all deliveries");
      expect([...first, ...second].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect(audit).toEqual(Array.from({ length: 20 }, (_, i) => i));
    });

    it("stops delivering to a member that stopped", async () => {
      const got: unknown[] = [];
      const subscription = await bus.subscribe({
        subjects: [subject],
        group: `g-${randomUUID()}`,
        handler: async (m) => void got.push(m.data),
      });
      await bus.publish([message(subject, 1)]);
      await until(() => got.length === 1, "the first message");
      await subscription.stop();
      await bus.publish([message(subject, 2)]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(got).toEqual([{ n: 1 }]);
    });

    it("keeps what a group missed while it had no member, and resumes there when a member subscribes again", async () => {
      const group = `g-${randomUUID()}`;
      const before: number[] = [];
      const after: number[] = [];
      const first = await bus.subscribe({ subjects: [subject], group, handler: record(before) });
      await bus.publish([message(subject, 1)]);
      await until(() => before.length === 1, "the first message");
      await first.stop();
      await bus.publish([message(subject, 2), message(subject, 3)]);
      await bus.subscribe({ subjects: [subject], group, handler: record(after) });
      await until(() => after.length >= 2, "the messages published while the group had no member");
      expect(after).toEqual([2, 3]);
      expect(before).toEqual([1]);
    });
  });
}
