// A DNS lookup for outgoing requests to addresses users name (webhooks, OAuth client metadata documents): every
// address the name resolves to is checked (public only unless private networks are allowed), and the socket
// connects to the checked address, so DNS cannot answer differently between check and connect.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { isPublicAddress } from "./address-check.ts";

export class RefusedAddress extends Error {}

export function checkedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 0);
      const refused = allowPrivate ? [] : addresses.filter((entry) => !isPublicAddress(entry.address));
      if (addresses.length === 0 || refused.length > 0) {
        return callback(new RefusedAddress(`${hostname} resolves to a private, loopback or link-local address`), "", 0);
      }
      if (options.all) return (callback as unknown as (error: null, all: LookupAddress[]) => void)(null, addresses);
      const [first] = addresses;
      return first
        ? callback(null, first.address, first.family)
        : callback(new RefusedAddress(`${hostname} has no address`), "", 0);
    });
  };
}
