// The check made at every delivery attempt, on the address the connection will use: a loopback endpoint is
// refused whatever its spelling (an IP literal, an IPv6 form carrying an IPv4 address, a name), and nothing
// reaches it; the operator's switch lets it through. Run against a real local HTTP receiver.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendWebhook } from "../../services/notifier/webhooks/webhook-sender.ts";
import { WebhookReceiver } from "../support/webhook-receiver.ts";

let endpoint: WebhookReceiver;
beforeAll(async () => {
  endpoint = await WebhookReceiver.start();
});
afterAll(async () => {
  await endpoint.stop();
});

const body = JSON.stringify({ type: "page.created", timestamp: new Date().toISOString(), data: {} });

describe("sending a webhook", () => {
  it("refuses every spelling of a loopback address before connecting, unless private networks are allowed", async () => {
    const port = new URL(endpoint.url).port;
    for (const url of [
      endpoint.url,
      `http://localhost:${port}/hook`,
      `http://[::ffff:127.0.0.1]:${port}/hook`,
      `http://[::127.0.0.1]:${port}/hook`,
      `http://[::ffff:0:127.0.0.1]:${port}/hook`,
      `http://[64:ff9b::127.0.0.1]:${port}/hook`,
    ]) {
      const result = await sendWebhook(url, {}, body, { allowPrivateNetworks: false, timeoutMs: 5_000 });
      expect(result.kind, url).toBe("error");
      expect(result.kind === "error" ? result.message : "", url).toMatch(/^refused: /);
    }
    expect(endpoint.received).toHaveLength(0);
    expect(await sendWebhook(endpoint.url, {}, body, { allowPrivateNetworks: true, timeoutMs: 5_000 })).toEqual({
      kind: "response",
      status: 200,
    });
    expect(endpoint.received).toHaveLength(1);
  });
});
