// Refuses, when a webhook is registered or its URL changed, an endpoint the notifier would never be allowed to
// call: an IP literal that is not public, a `localhost` name, or a name that resolves to a private address now.
// A name that does not resolve yet is accepted; every attempt checks the address it connects to again
// (address-check.ts), so this check only tells the user early, it does not guard the connection.
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { isPublicAddress } from "./address-check.ts";

/** Every address a host name resolves to; rejects when it does not resolve. */
export type ResolveHost = (host: string) => Promise<readonly string[]>;

const RESOLVE_TIME_LIMIT_MS = 2_000;

export const resolveHost: ResolveHost = async (host) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error("no answer")), RESOLVE_TIME_LIMIT_MS);
  });
  try {
    return (await Promise.race([lookup(host, { all: true }), timeout])).map((entry) => entry.address);
  } finally {
    clearTimeout(timer);
  }
};

/** Why the URL's host is not an address webhooks may call, or null when it may be (or cannot be told yet). */
export async function privateTargetOf(url: string, resolve: ResolveHost): Promise<string | null> {
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(host) !== 0) return isPublicAddress(host) ? null : `${host} is a private, loopback or link-local address`;
  const name = host.toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return `${host} is a loopback name`;
  let addresses: readonly string[];
  try {
    addresses = await resolve(name);
  } catch {
    return null;
  }
  const refused = addresses.find((address) => !isPublicAddress(address));
  return refused === undefined ? null : `${host} resolves to ${refused}, a private, loopback or link-local address`;
}
