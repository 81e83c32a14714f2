// The app image's services as the compose file runs them, on this machine: the image's health check
// (deploy/docker/healthcheck.mjs, run by node, the image's runtime) with each service's HEALTHCHECK_URL, and each
// service started with the variables the compose file gives it. Real processes over SQLite files (or the
// production stores on CI's production-stack job).
import { rm } from "node:fs/promises";
import { join } from "node:path";
import Database from "better-sqlite3";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { freePort } from "../../deploy/free-port.ts";
import { mintSession } from "../../shared/auth/session-verifier.ts";
import { KEK_FILE } from "../../shared/erasure/key-encryption-key.ts";
import { runToEnd } from "../support/image-shells.ts";
import { startProcess } from "../support/processes.ts";
import { Client, TEST_SESSION_SECRET } from "../support/server.ts";
import { startSplitServices, type Service, type SplitServices } from "../support/split-services.ts";
import { until } from "../support/poll.ts";

const composeService = z.looseObject({
  environment: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
const compose = z
  .object({ services: z.record(z.string(), composeService) })
  .parse(parse(readFileSync("docker-compose.yml", "utf8"), { merge: true }));
const environmentOf = (service: Service): Record<string, string> =>
  Object.fromEntries(
    Object.entries(compose.services[service]?.environment ?? {}).map(([name, value]) => [name, String(value)]),
  );
const APP: readonly Service[] = ["command-api", "projector", "notifier", "query-api"];

/** The image's health check, run as its HEALTHCHECK runs it: `node healthcheck.mjs` with the container's environment. */
const healthCheck = (env: Record<string, string>) =>
  runToEnd(process.execPath, ["deploy/docker/healthcheck.mjs"], env, 10_000);

describe("the app image's services", () => {
  let split: SplitServices;
  const metricsPort = { value: 0 };

  beforeAll(async () => {
    metricsPort.value = await freePort();
    // Only the projector and the notifier serve METRICS_PORT; no notifier runs here.
    split = await startSplitServices({
      queryNodes: 0,
      env: { METRICS_PORT: String(metricsPort.value), CONSISTENCY_WAIT_MS: "300" },
    });
  }, 120_000);
  afterAll(async () => {
    await split?.stop();
  });

  it("pass the image's health check on their /healthz while they serve, and fail it where nothing answers", async () => {
    const port = new URL(split.commandApi.url).port;
    expect((await healthCheck({ PORT: port })).status).toBe(0);
    expect((await healthCheck({ PORT: String(await freePort()) })).status).toBe(1);
  });

  it("give ERASURE_KEK to exactly the services that cannot start without it", async () => {
    // Without the key-encryption key (neither ERASURE_KEK nor DATA_DIR's own file) a service that opens the key
    // store refuses to start, naming ERASURE_KEK; one that does not starts.
    await rm(join(split.dataDir, KEK_FILE), { force: true });
    const { ERASURE_KEK: _kek, METRICS_PORT: _metrics, ...env } = split.env;
    const needs: Service[] = [];
    for (const service of APP) {
      const started = await startProcess(process.execPath, ["--import", "tsx", `services/${service}/main.ts`], {
        ...env,
        COMMAND_API_URL: split.commandApi.url,
      }).then(
        async (running) => {
          await running.stop();
          return null;
        },
        (error: unknown) => String(error),
      );
      if (started !== null) {
        expect(started, service).toContain("ERASURE_KEK");
        needs.push(service);
      }
    }
    expect(needs).toContain("command-api");
    const given = APP.filter((service) => environmentOf(service)["ERASURE_KEK"] !== undefined);
    expect(given).toEqual(needs);
  }, 120_000);

  // Last: the read models it leaves are of a newer layout, which no process of this release opens.
  const stallSkipped = process.env.WORKSPACE_TEST_STACK === "production";
  if (stallSkipped)
    console.log(
      "skipping the projector stall case: it stalls the projection by editing the SQLite read models, which the production stack does not use",
    );
  it.skipIf(stallSkipped)(
    "mark the projector unhealthy once its projection stalls, while its /metrics still answers",
    async () => {
      const environment = environmentOf("projector");
      const url = new URL(environment["HEALTHCHECK_URL"] ?? "");
      expect(url.port).toBe(environment["METRICS_PORT"]);
      url.port = String(metricsPort.value);
      const check = () => healthCheck({ HEALTHCHECK_URL: url.toString() });
      expect((await check()).status).toBe(0);

      const owner = new Client(split.commandApi.url, {
        cookie: await mintSession(TEST_SESSION_SECRET, {
          sub: crypto.randomUUID(),
          email: "stall@example.com",
          name: "Stall",
        }),
      });
      expect((await owner.post("/pages", { title: "Before the upgrade", markdown: "" })).status).toBe(201);
      // Read models laid out by a newer release (a replay switched them over): this projector stops projecting.
      const db = new Database(join(split.dataDir, "read-models.sqlite"));
      db.pragma(`user_version = ${Number(db.pragma("user_version", { simple: true })) + 1}`);
      db.close();
      await owner.post("/pages", { title: "After the upgrade", markdown: "" });

      await until(async () => (await check()).status === 1, "the projector's health check to fail", {
        timeoutMs: 30_000,
        intervalMs: 200,
      });
      expect((await fetch(`http://127.0.0.1:${metricsPort.value}/metrics`)).status).toBe(200);
    },
    60_000,
  );
});
