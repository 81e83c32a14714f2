// The container set-up as files: the compose file's services, health checks, start order and volumes, the
// Dockerfile's stages, and the gateway script's variables against the template. The Compose tool (`docker
// compose`, or Debian's docker-compose, which parses without an engine) validates the compose file.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { KurrentDBClient } from "@kurrent/kurrentdb-client";
import { describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { SHUTDOWN_GRACE_MS } from "../../shared/http/create-app.ts";

const service = z.looseObject({
  image: z.string().optional(),
  build: z.unknown().optional(),
  command: z.array(z.string()).optional(),
  environment: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  depends_on: z.record(z.string(), z.object({ condition: z.string() })).optional(),
  healthcheck: z.looseObject({ test: z.array(z.string()) }).optional(),
  volumes: z.array(z.string()).optional(),
  stop_grace_period: z.string().optional(),
  deploy: z.looseObject({ replicas: z.union([z.string(), z.number()]) }).optional(),
});
const composeSchema = z.object({ services: z.record(z.string(), service), volumes: z.record(z.string(), z.null()) });
const compose = composeSchema.parse(parse(readFileSync("docker-compose.yml", "utf8"), { merge: true }));
const services = compose.services;
const app = ["command-api", "projector", "notifier", "query-api"];

describe("docker-compose.yml", () => {
  it("runs the stores, the broker, every service and the gateway", () => {
    expect(Object.keys(services).sort()).toEqual([
      "command-api",
      "eventstore",
      "gateway",
      "mongodb",
      "nats",
      "notifier",
      "projector",
      "query-api",
    ]);
    expect(services["mongodb"]?.command).toEqual(expect.arrayContaining(["--replSet", "rs0"]));
    expect(services["nats"]?.command).toContain("-js");
    expect(String(services["query-api"]?.deploy?.replicas)).toBe("${QUERY_API_REPLICAS:-2}");
    expect(services["projector"]?.deploy).toBeUndefined();
  });

  it("gives every service a health check (the app image has its own) and starts each after what it needs is healthy", () => {
    for (const name of ["eventstore", "mongodb", "nats", "gateway"])
      expect(services[name]?.healthcheck, name).toBeDefined();
    expect(readFileSync("Dockerfile", "utf8")).toMatch(/^HEALTHCHECK /m);
    // Without an HTTP port of their own, the projector and the notifier are checked on their metrics port: the
    // projector on its projection's progress (test/deploy/service-containers.test.ts), the notifier on answering.
    expect(services["projector"]?.environment?.["HEALTHCHECK_URL"]).toBe("http://127.0.0.1:9100/readyz");
    expect(services["notifier"]?.environment?.["HEALTHCHECK_URL"]).toBe("http://127.0.0.1:9100/metrics");
    expect(Object.keys(services["command-api"]?.depends_on ?? {}).sort()).toEqual(["eventstore", "mongodb", "nats"]);
    for (const name of ["projector", "notifier", "query-api"])
      expect(services[name]?.depends_on?.["command-api"]?.condition, name).toBe("service_healthy");
    for (const dependency of Object.values(services["command-api"]?.depends_on ?? {}))
      expect(dependency.condition).toBe("service_healthy");
  });

  it("keeps data in named volumes and takes every setting from the environment", () => {
    expect(Object.keys(compose.volumes).sort()).toEqual([
      "eventstore-data",
      "mail-outbox",
      "mongodb-data",
      "nats-data",
    ]);
    for (const name of app) {
      const environment = services[name]?.environment ?? {};
      expect(environment["AUTH_SESSION_SECRET"], name).toMatch(/^\$\{AUTH_SESSION_SECRET:\?/);
      // Where it is given (test/deploy/service-containers.test.ts: to exactly the services that need it), it must be set.
      if (environment["ERASURE_KEK"] !== undefined)
        expect(environment["ERASURE_KEK"], name).toMatch(/^\$\{ERASURE_KEK:\?/);
      for (const variable of ["EVENTSTORE_URL", "MONGODB_URL", "NATS_URL", "LOG_LEVEL"])
        expect(String(environment[variable]), `${name} ${variable}`).toMatch(new RegExp(`^\\$\\{${variable}:-`));
      // No SQLite file or blob directory is shared between services: state lives in the servers.
      expect(services[name]?.volumes ?? [], name).toEqual(name === "notifier" ? ["mail-outbox:/data"] : []);
    }
  });

  it("gives each service longer to stop than its shutdown grace, so it closes its stores before it is killed", () => {
    // Compose's default is 10 s; the services wait SHUTDOWN_GRACE_MS for open connections, then close their stores.
    const seconds = (period: string | undefined) => {
      const match = /^(\d+)s$/.exec(period ?? "10s");
      if (!match) throw new Error(`stop_grace_period ${String(period)}: expected whole seconds (30s)`);
      return Number(match[1]);
    };
    for (const name of app)
      expect(seconds(services[name]?.stop_grace_period), name).toBeGreaterThanOrEqual(SHUTDOWN_GRACE_MS / 1000 + 10);
  });

  it("names EventStoreDB with the client's current scheme, which prints no deprecation warning", () => {
    const urls = [
      ...app.map(
        (name) => /^\$\{EVENTSTORE_URL:-(.+)\}$/.exec(String(services[name]?.environment?.["EVENTSTORE_URL"]))?.[1],
      ),
      /EVENTSTORE_URL: (\S+)/.exec(readFileSync(".github/workflows/ci.yml", "utf8"))?.[1],
    ];
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      for (const url of urls) {
        expect(url).toBeDefined();
        KurrentDBClient.connectionString(url ?? "");
      }
      expect(warn.mock.calls).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  });

  it("is valid to the Compose tool", (context) => {
    const tools = [
      { command: "docker", args: ["compose"] },
      { command: "docker-compose", args: [] },
    ];
    const tool = tools.find(
      ({ command, args }) => spawnSync(command, [...args, "version"], { encoding: "utf8" }).status === 0,
    );
    if (!tool) {
      if (process.env.CI === "true")
        throw new Error(
          "neither docker compose nor docker-compose is installed: CI must check the compose file (.ci/run installs docker-compose)",
        );
      console.warn(
        "compose file check skipped: neither docker compose nor docker-compose is installed (apt-get install -y docker-compose)",
      );
      context.skip();
      return;
    }
    const env = { PATH: process.env.PATH ?? "", AUTH_SESSION_SECRET: "x".repeat(32), ERASURE_KEK: "k".repeat(32) };
    const checked = spawnSync(tool.command, [...tool.args, "-f", "docker-compose.yml", "config", "--quiet"], {
      encoding: "utf8",
      env,
    });
    expect(checked.status, checked.stderr).toBe(0);
    // And it refuses to start without the secrets it must be given, naming them.
    const unset = spawnSync(tool.command, [...tool.args, "-f", "docker-compose.yml", "config", "--quiet"], {
      encoding: "utf8",
      env: { PATH: env.PATH },
    });
    expect(unset.status).not.toBe(0);
    expect(unset.stderr).toContain("AUTH_SESSION_SECRET");
  });
});

describe("Dockerfile and gateway script", () => {
  it("builds in two stages and runs compiled JavaScript with production dependencies as a non-root user", () => {
    const dockerfile = readFileSync("Dockerfile", "utf8");
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2);
    expect(dockerfile).toMatch(/npm prune --omit=dev/);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^CMD \["node", "dist\/services\/all-in-one\.js"\]$/m);
  });

  it("runs every service with the same heap budget in the image as under npm start", () => {
    const budget = (text: string) => [...text.matchAll(/--max-old-space-size=(\d+)/g)].map((match) => match[1]);
    const image = budget(readFileSync("Dockerfile", "utf8"));
    expect(image).toEqual(["1024"]);
    const scripts = z
      .object({ scripts: z.record(z.string(), z.string()) })
      .parse(JSON.parse(readFileSync("package.json", "utf8"))).scripts;
    const starts = Object.entries(scripts).filter(([name]) => name === "start" || name.startsWith("start:"));
    expect(starts.length).toBeGreaterThan(1);
    for (const [name, command] of starts) expect(budget(command), name).toEqual(image);
  });

  it("fills in every variable of the nginx template", () => {
    const template = readFileSync("deploy/nginx/gateway.conf.template", "utf8");
    const script = readFileSync("deploy/docker/gateway.sh", "utf8");
    const used = new Set([...template.matchAll(/\$\{([A-Z_]+)\}/g)].map((match) => match[1]));
    const substituted = new Set(
      [...(/envsubst '([^']+)'/.exec(script)?.[1] ?? "").matchAll(/\$\{([A-Z_]+)\}/g)].map((match) => match[1]),
    );
    expect([...used].sort()).toEqual([...substituted].sort());
  });
});
