// A DNS server for the tests, as compose's embedded one answers a gateway: A records for a few names, which
// the test changes while it runs (a container recreated with a new address, a service scaled up). UDP on a
// free port of 127.0.0.1; one question per query, TTL 1 s; any other name or type answers with no records.
import { createSocket } from "node:dgram";
import { freePort } from "../../deploy/free-port.ts";

export interface TestDnsServer {
  /** host:port, as nginx's resolver directive takes it. */
  readonly address: string;
  /** Sets the addresses a name resolves to (IPv4 only). */
  set(name: string, addresses: readonly string[]): void;
  close(): Promise<void>;
}

/** The question's name and where the question section ends, or null for a packet that is not a query. */
function question(packet: Buffer): { name: string; type: number; end: number } | null {
  if (packet.length < 12 || packet.readUInt16BE(4) !== 1) return null;
  const labels: string[] = [];
  let offset = 12;
  while (offset < packet.length) {
    const length = packet.readUInt8(offset);
    offset += 1;
    if (length === 0) break;
    labels.push(packet.subarray(offset, offset + length).toString("ascii"));
    offset += length;
  }
  if (offset + 4 > packet.length) return null;
  return { name: labels.join(".").toLowerCase(), type: packet.readUInt16BE(offset), end: offset + 4 };
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const records = new Map<string, readonly string[]>();
  const socket = createSocket("udp4");
  socket.on("message", (packet, peer) => {
    const asked = question(packet);
    if (!asked) return;
    const addresses = asked.type === 1 ? (records.get(asked.name) ?? []) : [];
    const header = Buffer.alloc(12);
    header.writeUInt16BE(packet.readUInt16BE(0), 0);
    // A response, recursion desired and available; NXDOMAIN for a name it does not know.
    header.writeUInt16BE(records.has(asked.name) ? 0x8180 : 0x8183, 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(addresses.length, 6);
    const answers = addresses.map((address) => {
      const answer = Buffer.alloc(16);
      answer.writeUInt16BE(0xc00c, 0);
      answer.writeUInt16BE(1, 2);
      answer.writeUInt16BE(1, 4);
      answer.writeUInt32BE(1, 6);
      answer.writeUInt16BE(4, 10);
      address.split(".").forEach((octet, index) => answer.writeUInt8(Number(octet), 12 + index));
      return answer;
    });
    socket.send(Buffer.concat([header, packet.subarray(12, asked.end), ...answers]), peer.port, peer.address);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => socket.bind(port, "127.0.0.1", resolve));
  return {
    address: `127.0.0.1:${port}`,
    set: (name, addresses) => void records.set(name.toLowerCase(), [...addresses]),
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
