// Which addresses a webhook may reach: public unicast only, unless the operator allows private networks. The
// check runs on the address the connection will use (see services/notifier/webhooks/webhook-sender.ts), so a
// name that resolves differently later (DNS rebinding) cannot slip past it. An IPv6 address that carries an
// IPv4 address (compatible, mapped, translated, NAT64, 6to4) is judged by the IPv4 address it carries: the
// kernel or a translator on the path may deliver it there, so `[::127.0.0.1]` is loopback.
import { BlockList, isIP } from "node:net";

const blockedV4 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blockedV4.addSubnet(network, prefix, "ipv4");
}

/** IPv6 ranges refused outright (forms that carry an IPv4 address are decided by it before these apply). */
const blockedV6 = new BlockList();
for (const [network, prefix] of [
  ["::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  blockedV6.addSubnet(network, prefix, "ipv6");
}

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted IPv4 part becomes the last two). */
function groupsOf(address: string): number[] {
  let text = address.replace(/%.*$/, "").toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array<number>(Math.max(0, 8 - left.length - right.length)).fill(0), ...right];
}

const v4Of = (high: number, low: number): string => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/** The IPv4 address an IPv6 address carries, when it is of a form that carries one. */
function embeddedIpv4(address: string): string | null {
  const groups = groupsOf(address);
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const zeroTo = (end: number) => groups.slice(0, end).every((group) => group === 0);
  // ::a.b.c.d (compatible; :: and ::1 are themselves), ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated).
  if (zeroTo(6) && (g6 !== 0 || g7 > 1)) return v4Of(g6, g7);
  if (zeroTo(5) && g5 === 0xffff) return v4Of(g6, g7);
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return v4Of(g6, g7);
  // 64:ff9b::a.b.c.d, the well-known NAT64 prefix: the translator connects to a.b.c.d.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4Of(g6, g7);
  // 2002:aabb:ccdd::/48, 6to4: the relay forwards to a.b.c.d.
  if (g0 === 0x2002) return v4Of(g1, g2);
  return null;
}

/** False for private, loopback, link-local, documentation, multicast and reserved addresses, in any spelling. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blockedV4.check(address, "ipv4");
  if (family !== 6) return false;
  const carried = embeddedIpv4(address);
  if (carried !== null) return !blockedV4.check(carried, "ipv4");
  return !blockedV6.check(address.replace(/%.*$/, ""), "ipv6");
}
