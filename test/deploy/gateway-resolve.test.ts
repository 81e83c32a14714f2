// The containers' gateway resolves service names while it runs. Its script (deploy/docker/gateway.sh, under busybox
// sh as the nginx:alpine image runs it), in front of real services behind a DNS server the test controls: a
// query node that appears under the name (a scale-up) gets reads, and when the name moves to a new address (a
// container recreated) every read goes there, all 200. (nginx -t of what the script renders, under each image
// shell: test/deploy/gateway-container.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../deploy/free-port.ts";
import { startDnsServer, type TestDnsServer } from "../support/dns-server.ts";
import { gatewayUnavailable, startContainerGateway, type Gateway } from "../support/gateway.ts";
import { IMAGE_SHELLS, imageShellsUnavailable } from "../support/image-shells.ts";
import { startProcess, type ServiceProcess } from "../support/processes.ts";
import { startSplitServices, type SplitServices } from "../support/split-services.ts";
import { until } from "../support/poll.ts";

const unavailable = gatewayUnavailable() ?? imageShellsUnavailable();
if (unavailable) console.warn(`gateway resolution tests skipped: ${unavailable}`);
const [busybox] = IMAGE_SHELLS;

/** Requests a query node counted on a route, from its /metrics. */
async function served(node: ServiceProcess, route: string): Promise<number> {
  const text = await (await fetch(`${node.url}/metrics`)).text();
  return text
    .split("\n")
    .filter((line) => line.startsWith("http_request_duration_seconds_count{") && line.includes(`route="${route}"`))
    .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
}

describe.skipIf(unavailable !== null)("the gateway container with a resolver", () => {
  describe("in front of services found by name", () => {
    let dns: TestDnsServer;
    let split: SplitServices;
    let gateway: Gateway;
    const nodes: ServiceProcess[] = [];
    const port = { query: 0 };

    beforeAll(async () => {
      dns = await startDnsServer();
      split = await startSplitServices({ queryNodes: 0 });
      port.query = await freePort();
      // Two query nodes on one port, as two containers have one port on two addresses.
      for (const host of ["127.0.0.2", "127.0.0.3"]) {
        nodes.push(
          await startProcess(process.execPath, ["--import", "tsx", "services/query-api/main.ts"], {
            ...split.env,
            HOST: host,
            PORT: String(port.query),
            COMMAND_API_URL: split.commandApi.url,
          }),
        );
      }
      dns.set("command-api", ["127.0.0.1"]);
      dns.set("query-api", ["127.0.0.2"]);
      if (!busybox) throw new Error("busybox sh expected among the image shells");
      gateway = await startContainerGateway({
        shell: busybox,
        commandApi: `command-api:${new URL(split.commandApi.url).port}`,
        queryApi: `query-api:${port.query}`,
        resolver: dns.address,
      });
    }, 180_000);
    afterAll(async () => {
      await gateway?.stop();
      for (const node of nodes) await node.stop();
      await split?.stop();
      await dns?.close();
    });

    const read = async () => (await fetch(`${gateway.url}/api/v1/openapi.json`)).status;

    it("sends reads to a node that appears under the name, and all of them to the new address once it moves", async () => {
      const [first, second] = nodes;
      if (!first || !second) throw new Error("two query nodes expected");
      for (let n = 0; n < 5; n += 1) expect(await read()).toBe(200);
      expect(await served(first, "/api/v1/openapi.json")).toBe(5);
      expect(await served(second, "/api/v1/openapi.json")).toBe(0);

      // Scaled up: the name now has two addresses.
      dns.set("query-api", ["127.0.0.2", "127.0.0.3"]);
      await until(
        async () => (await read()) === 200 && (await served(second, "/api/v1/openapi.json")) > 0,
        "a read on the new node",
        { timeoutMs: 60_000, intervalMs: 200 },
      );

      // Recreated elsewhere: the old address goes away and the name points at the new one only.
      dns.set("query-api", ["127.0.0.3"]);
      await first.stop();
      await until(
        async () => {
          const before = await served(second, "/api/v1/openapi.json");
          const statuses = await Promise.all(Array.from({ length: 10 }, read));
          return (
            statuses.every((status) => status === 200) && (await served(second, "/api/v1/openapi.json")) === before + 10
          );
        },
        "every read answered by the node at the new address",
        { timeoutMs: 60_000, intervalMs: 200 },
      );
    }, 120_000);
  });
});
