// The gateway container's entry point, deploy/docker/gateway.sh, run as the nginx:alpine image runs it: under
// busybox sh (the image's /bin/sh) and under dash, with only busybox's applets, envsubst and nginx on PATH and the
// compose file's environment. Its configuration passes `nginx -t`, with the default /metrics answer and with one
// an operator sets; then the script runs nginx in front of real services, found by name through a DNS server as
// compose's, and a client reaches the query node and the command API through it. The compose file's health check
// for the gateway is run the same way, with busybox's wget.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { mintSession } from "../../shared/auth/session-verifier.ts";
import { startDnsServer, type TestDnsServer } from "../support/dns-server.ts";
import {
  containerGatewayRun,
  gatewayUnavailable,
  runGatewayScript,
  startContainerGateway,
  type Gateway,
} from "../support/gateway.ts";
import { IMAGE_SHELLS, imageShellsUnavailable, runToEnd, toolPath } from "../support/image-shells.ts";
import { Client, TEST_SESSION_SECRET } from "../support/server.ts";
import { startSplitServices, type SplitServices } from "../support/split-services.ts";

const unavailable = gatewayUnavailable() ?? imageShellsUnavailable();
if (unavailable) console.warn(`gateway container tests skipped: ${unavailable}`);

const gatewayService = z.object({
  environment: z.record(z.string(), z.union([z.string(), z.number()])),
  healthcheck: z.looseObject({ test: z.tuple([z.literal("CMD-SHELL"), z.string()]) }),
});
const composeGateway = gatewayService.parse(
  z.object({ services: z.object({ gateway: z.unknown() }) }).parse(parse(readFileSync("docker-compose.yml", "utf8")))
    .services.gateway,
);
/** What compose sets for the script, apart from the service addresses (the test's own). */
const composeEnv = Object.fromEntries(
  Object.entries(composeGateway.environment).map(([name, value]) => [name, String(value)]),
);

/** The error shape every gateway answer of its own has. */
const apiError = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

describe.skipIf(unavailable !== null).each(IMAGE_SHELLS)("the gateway container's script under $name", (shell) => {
  it("renders a configuration nginx -t accepts, with the image's defaults", async () => {
    // No DNS_RESOLVER: the script takes the container's nameserver from /etc/resolv.conf, as in compose.
    const { GATEWAY_PORT: _port, ...rest } = composeEnv;
    const run = await containerGatewayRun(rest);
    try {
      const checked = await runGatewayScript(shell, run, ["-t", "-e", "stderr"]);
      expect(checked.output).toContain("test is successful");
      expect(checked.status).toBe(0);
    } finally {
      await run.dir.remove();
    }
  });

  it("renders a configuration nginx -t accepts with the operator's METRICS_LOCATION", async () => {
    const run = await containerGatewayRun({
      ...composeEnv,
      METRICS_LOCATION: "allow 10.0.0.0/8; deny all; proxy_pass http://$command_api;",
    });
    try {
      const checked = await runGatewayScript(shell, run, ["-t", "-e", "stderr"]);
      expect(checked.output).toContain("test is successful");
      expect(checked.status).toBe(0);
    } finally {
      await run.dir.remove();
    }
  });
});

describe.skipIf(unavailable !== null)("the gateway container in front of running services", () => {
  let dns: TestDnsServer;
  let split: SplitServices;
  const gateways = new Map<string, Gateway>();

  beforeAll(async () => {
    dns = await startDnsServer();
    split = await startSplitServices({ queryNodes: 1 });
    dns.set("command-api", ["127.0.0.1"]);
    dns.set("query-api", ["127.0.0.1"]);
    const [queryNode] = split.queryApis;
    if (!queryNode) throw new Error("a query node expected");
    for (const shell of IMAGE_SHELLS) {
      gateways.set(
        shell.name,
        await startContainerGateway({
          shell,
          commandApi: `command-api:${new URL(split.commandApi.url).port}`,
          queryApi: `query-api:${new URL(queryNode.url).port}`,
          resolver: dns.address,
        }),
      );
    }
  }, 180_000);
  afterAll(async () => {
    for (const gateway of gateways.values()) await gateway.stop();
    await split?.stop();
    await dns?.close();
  });

  it.each(IMAGE_SHELLS)(
    "sends a write to the command API and its read to the query node, under $name",
    async (shell) => {
      const gateway = gateways.get(shell.name);
      if (!gateway) throw new Error(`no gateway under ${shell.name}`);
      const client = new Client(gateway.url, {
        cookie: await mintSession(TEST_SESSION_SECRET, {
          sub: crypto.randomUUID(),
          email: `ops-${shell.command}@example.com`,
          name: "Ops",
        }),
      });
      const folder = await client.post("/folders", { name: `Runbooks ${shell.name}` });
      expect(folder.status).toBe(201);
      const read = await client.get(`/folders/${String(folder.body.id)}`, {
        "x-consistency-token": folder.headers.get("x-consistency-token") ?? "",
      });
      expect(read.status).toBe(200);
      expect(read.body.name).toBe(`Runbooks ${shell.name}`);
      expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    },
  );

  it.each(IMAGE_SHELLS)("answers /metrics 404 in the API's error shape by default, under $name", async (shell) => {
    const gateway = gateways.get(shell.name);
    if (!gateway) throw new Error(`no gateway under ${shell.name}`);
    const response = await fetch(`${gateway.url}/metrics`);
    expect(response.status).toBe(404);
    expect(apiError.parse(await response.json()).error.code).toBe("not_found");
  });

  it.each(IMAGE_SHELLS)(
    "passes the compose file's health check, run by busybox sh with busybox's wget, under $name",
    async (shell) => {
      const gateway = gateways.get(shell.name);
      if (!gateway) throw new Error(`no gateway under ${shell.name}`);
      const command = composeGateway.healthcheck.test[1];
      const composePort = `127.0.0.1:${composeEnv["GATEWAY_PORT"] ?? ""}`;
      expect(command).toContain(composePort);
      const run = await containerGatewayRun({});
      try {
        const healthy = await runToEnd(
          toolPath("busybox"),
          ["sh", "-c", command.replace(composePort, new URL(gateway.url).host)],
          { PATH: run.bin },
        );
        expect(healthy.status, healthy.output).toBe(0);
        // And it fails where no gateway answers.
        const down = await runToEnd(
          toolPath("busybox"),
          ["sh", "-c", command.replace(composePort, `127.0.0.1:${run.env["GATEWAY_PORT"] ?? ""}`)],
          { PATH: run.bin },
        );
        expect(down.status).toBe(1);
      } finally {
        await run.dir.remove();
      }
    },
  );
});
