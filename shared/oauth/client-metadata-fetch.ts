// The fetch the authorization server uses for Client ID Metadata Documents: over node's https with the webhooks'
// address rules (every address the name resolves to must be public unless the operator allows private networks,
// and the socket connects to the address checked), no redirects, a deadline, and a bounded answer.
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { Readable } from "node:stream";
import { isPublicAddress } from "../webhooks/address-check.ts";
import { checkedLookup } from "../webhooks/checked-lookup.ts";

const TIMEOUT_MS = 5_000;
const MAX_BYTES = 64 * 1024;

export interface MetadataFetchOptions {
  readonly allowPrivateNetworks: boolean;
  /** Certificates to trust besides the system's (tests serving a document over TLS on loopback). */
  readonly ca?: string;
}

/** A `fetch` for GET requests only, answering a WHATWG Response as the authorization server expects. */
export function clientMetadataFetch(
  options: MetadataFetchOptions,
): (url: string | URL, init?: { headers?: HeadersInit }) => Promise<Response> {
  return (url, init) =>
    new Promise((resolve, reject) => {
      const target = new URL(url);
      if (target.protocol !== "https:")
        return reject(new Error("client metadata documents are fetched over https only"));
      const host = target.hostname.replace(/^\[(.*)\]$/, "$1");
      if (isIP(host) !== 0 && !options.allowPrivateNetworks && !isPublicAddress(host)) {
        return reject(new Error(`refused: ${host} is a private, loopback or link-local address`));
      }
      const headers: Record<string, string> = { accept: "application/json", "user-agent": "workspace-oauth/1" };
      new Headers(init?.headers).forEach((value, name) => {
        if (name === "accept") headers[name] = value;
      });
      const request = httpsRequest(
        target,
        {
          method: "GET",
          headers,
          lookup: checkedLookup(options.allowPrivateNetworks),
          agent: false,
          ...(options.ca ? { ca: options.ca } : {}),
        },
        (response) => {
          let received = 0;
          response.on("data", (chunk: Buffer) => {
            received += chunk.length;
            if (received > MAX_BYTES) response.destroy(new Error("client metadata document too large"));
          });
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (typeof value === "string") answerHeaders.set(name, value);
          }
          const status = response.statusCode ?? 502;
          // A Response with one of these statuses may carry no body: the answer is refused all the same (not 200).
          const body = [204, 205, 304].includes(status)
            ? null
            : (Readable.toWeb(response) as ReadableStream<Uint8Array>);
          if (body === null) response.resume();
          resolve(new Response(body, { status, headers: answerHeaders }));
        },
      );
      request.setTimeout(TIMEOUT_MS, () => request.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
      request.on("error", reject);
      request.end();
    });
}
