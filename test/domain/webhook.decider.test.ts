import { describe, expect, it } from "vitest";
import { userIdSchema } from "../../shared/kernel/ids.ts";
import { isPublicAddress } from "../../shared/webhooks/address-check.ts";
import { afterAttempt, MAX_RETRY_DELAY_MS, retryDelayMs } from "../../shared/webhooks/delivery-rules.ts";
import { webhookDecider, webhookIdSchema, type WebhookEvent } from "../../shared/webhooks/webhook.decider.ts";
import { WebhookSecretSealer, newWebhookSecret } from "../../shared/webhooks/webhook-secret.ts";
import { deciderSpec } from "../support/decider-spec.ts";

const { given } = deciderSpec(webhookDecider);
const webhookId = webhookIdSchema.parse("3d2a4c1e-5b6f-4a7b-8c9d-0e1f2a3b4c5d");
const ownerId = userIdSchema.parse("0b7c3a52-1d4e-4f6a-8b9c-2e3f4a5b6c7d");
const other = userIdSchema.parse("9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d");
const created: WebhookEvent = {
  type: "WebhookCreated",
  data: {
    webhookId,
    ownerId,
    folderId: null,
    url: "https://a.example/",
    events: ["*"],
    description: null,
    sealedSecret: "v1.x.y",
  },
};

describe("webhook decider", () => {
  it("only the owner changes or deletes a webhook; a change to the same settings records nothing", () => {
    given([created])
      .when({ type: "UpdateWebhook", webhookId, ownerId: other, changes: { active: false } })
      .thenRefuses("not_found");
    given([created])
      .when({ type: "UpdateWebhook", webhookId, ownerId, changes: { url: "https://a.example/" } })
      .then([]);
    given([created])
      .when({ type: "UpdateWebhook", webhookId, ownerId, changes: { events: ["page.created"] } })
      .then([
        {
          type: "WebhookUpdated",
          data: { webhookId, url: "https://a.example/", events: ["page.created"], description: null, active: true },
        },
      ]);
    given([created]).when({ type: "DeleteWebhook", webhookId, ownerId: other }).thenRefuses("not_found");
    given([created, { type: "WebhookDeleted", data: { webhookId } }])
      .when({ type: "DeleteWebhook", webhookId, ownerId })
      .thenRefuses("not_found");
  });

  it("disables an active webhook once, with its reason", () => {
    const disabled: WebhookEvent = { type: "WebhookDisabled", data: { webhookId, reason: "410" } };
    given([created]).when({ type: "DisableWebhook", webhookId, reason: "410" }).then([disabled]);
    given([created, disabled]).when({ type: "DisableWebhook", webhookId, reason: "again" }).then([]);
  });
});

describe("webhook secrets", () => {
  it("open only for the webhook they were sealed for, under the key they were sealed with", () => {
    const sealer = new WebhookSecretSealer("k".repeat(40));
    const secret = newWebhookSecret();
    const sealed = sealer.seal("hook-1", secret);
    expect(sealed).not.toContain(secret.slice(6));
    expect(sealer.open("hook-1", sealed)).toBe(secret);
    expect(() => sealer.open("hook-2", sealed)).toThrow();
    expect(() => new WebhookSecretSealer("j".repeat(40)).open("hook-1", sealed)).toThrow();
  });
});

describe("delivery rules", () => {
  const rules = { firstRetryMs: 10_000, failureWindowMs: 3 * 24 * 3_600_000 };
  const delivery = { attempts: 0, createdAt: "2026-01-01T00:00:00.000Z" };
  const now = new Date("2026-01-01T00:00:01.000Z");

  it("retries first within 10 s, then doubles with jitter up to a day", () => {
    expect(retryDelayMs(1, rules, 0.999)).toBeLessThanOrEqual(10_000);
    expect(retryDelayMs(1, rules, 0)).toBe(5_000);
    expect(retryDelayMs(2, rules, 0)).toBe(10_000);
    expect(retryDelayMs(40, rules, 0.999)).toBeLessThanOrEqual(MAX_RETRY_DELAY_MS);
  });

  it("a 2xx delivers, a 503 retries, a 410 fails and disables, three days of failure fail and disable", () => {
    expect(afterAttempt(delivery, { kind: "response", status: 204 }, now, rules, 0.5).outcome).toMatchObject({
      status: "delivered",
      attempts: 1,
    });
    const retried = afterAttempt(delivery, { kind: "response", status: 503 }, now, rules, 0.5);
    expect(retried).toMatchObject({ outcome: { status: "pending", lastResponseStatus: 503 }, disableReason: null });
    expect(afterAttempt(delivery, { kind: "response", status: 410 }, now, rules, 0.5)).toMatchObject({
      outcome: { status: "failed" },
      disableReason: expect.stringContaining("410"),
    });
    const late = new Date("2026-01-04T00:00:00.000Z");
    expect(
      afterAttempt(
        { attempts: 12, createdAt: delivery.createdAt },
        { kind: "error", message: "timeout" },
        late,
        rules,
        0.5,
      ),
    ).toMatchObject({
      outcome: { status: "failed", lastError: "timeout" },
      disableReason: expect.stringContaining("72 hours"),
    });
  });
});

describe("addresses", () => {
  it("private, loopback, link-local and mapped addresses are not public", () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "0.0.0.0",
      "::1",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    for (const address of ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"])
      expect(isPublicAddress(address), address).toBe(true);
  });

  it("an IPv6 address carrying an IPv4 address is judged by the IPv4 address, in every spelling a URL allows", () => {
    const loopbackSpellings = [
      "[::127.0.0.1]",
      "[::7f00:1]",
      "[::ffff:0:127.0.0.1]",
      "[::ffff:0:7f00:1]",
      "[0:0:0:0:0:ffff:7f00:0001]",
      "[::ffff:127.0.0.1]",
      "[64:ff9b::127.0.0.1]",
      "[2002:7f00:1::]",
      "[::10.0.0.1]",
      "[::ffff:0:192.168.1.1]",
      "[::ffff:169.254.169.254]",
      "[64:ff9b::a9fe:a9fe]",
      "[2002:c0a8:101::1]",
      "[64:ff9b:1::1]",
      "[2001:0:4136:e378:8000:63bf:3fff:fdd2]",
      "[::]",
      "[::1]",
      "[fec0::1]",
    ];
    for (const spelled of loopbackSpellings) {
      const host = new URL(`http://${spelled}:8080/`).hostname.replace(/^\[(.*)\]$/, "$1");
      expect(isPublicAddress(host), spelled).toBe(false);
    }
    for (const address of [
      "::93.184.216.34",
      "::ffff:0:93.184.216.34",
      "::ffff:93.184.216.34",
      "64:ff9b::93.184.216.34",
      "2002:5db8:d822::1",
    ]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });
});
