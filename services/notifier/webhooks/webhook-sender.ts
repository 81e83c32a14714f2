// One HTTP POST to a webhook endpoint with node's http/https: the host is resolved here, every address it
// resolves to is checked (public only unless private networks are allowed), and the socket connects to the
// checked address through a custom `lookup`, so DNS cannot answer differently between check and connect.
// Redirects are not followed (a 3xx is an answer like any other non-2xx); the whole exchange has a deadline.
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { isPublicAddress } from "../../../shared/webhooks/address-check.ts";
import { checkedLookup, RefusedAddress } from "../../../shared/webhooks/checked-lookup.ts";
import type { AttemptResult } from "../../../shared/webhooks/delivery-rules.ts";

export interface SendOptions {
  readonly allowPrivateNetworks: boolean;
  readonly timeoutMs: number;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

export function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<AttemptResult> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ kind: "error", message: "the webhook's URL is not valid" });
    }
    const host = target.hostname.replace(/^\[(.*)\]$/, "$1");
    if (isIP(host) !== 0 && !options.allowPrivateNetworks && !isPublicAddress(host)) {
      return resolve({ kind: "error", message: `refused: ${host} is a private, loopback or link-local address` });
    }
    const request = (target.protocol === "https:" ? httpsRequest : httpRequest)(
      target,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "workspace-webhooks/1",
          ...headers,
        },
        lookup: checkedLookup(options.allowPrivateNetworks),
        agent: false,
      },
      (response) => {
        let received = 0;
        response.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) response.destroy();
        });
        response.on("close", () => {
          clearTimeout(timer);
          resolve({ kind: "response", status: response.statusCode ?? 0 });
        });
      },
    );
    const timer = setTimeout(
      () => request.destroy(new Error(`no answer within ${options.timeoutMs / 1000} s`)),
      options.timeoutMs,
    );
    request.on("error", (error) => {
      clearTimeout(timer);
      const message = error instanceof RefusedAddress ? `refused: ${error.message}` : error.message;
      resolve({ kind: "error", message: message.slice(0, 300) });
    });
    request.end(body);
  });
}
