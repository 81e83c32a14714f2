// Renders the local split's gateway configuration from gateway.conf.template, as envsubst would: ${NAME}
// placeholders are filled in, nginx's own $variables are left alone, and the services are upstreams of fixed
// addresses. Used by `npm run split`, the benchmark and the tests. The gateway container renders the same
// template with its own script (deploy/docker/gateway.sh), which resolves service names while nginx runs.
import { chmod, readFile } from "node:fs/promises";
import { join } from "node:path";

export interface GatewaySettings {
  readonly port: number;
  /** host:port of the command API. */
  readonly commandApi: string;
  /** host:port of each query node. */
  readonly queryApis: readonly string[];
  /** A writable directory for nginx's pid file and temporary files. */
  readonly runDir: string;
  /** The services' BODY_LIMIT_BYTES (default 1 MiB): the gateway refuses an ordinary API body over it. */
  readonly bodyLimitBytes?: number;
  /** nginx directives for `location = /metrics`; by default the gateway answers it 404. */
  readonly metricsLocation?: string;
}

/** Metrics are scraped from each service directly, not through the public gateway. */
const METRICS_NOT_PUBLIC = `default_type application/json;
      return 404 '{"error":{"code":"not_found","message":"no such route"}}';`;

// Idle connections kept open to the services, per worker. Fewer than the clients a node serves at once made
// nginx open and close a new upstream connection for the excess on nearly every request (a thousand sockets in
// TIME_WAIT after 15 s at 50 clients), a connect's cost each time. 256 covers the benchmark's and a busy node's
// concurrency. Below the services' keep-alive timeout (72 s), so nginx never reuses a connection a service is
// closing. (Names resolved while running go without these pools: nginx before 1.27.3 keeps none for them.)
function upstreams(commandApi: string, queryApis: readonly string[]): string {
  const servers = queryApis.map((host) => `server ${host} max_fails=1 fail_timeout=5s;`).join("\n    ");
  return `upstream query_api {
    ${servers}
    keepalive 256;
    keepalive_timeout 60s;
    keepalive_requests 100000;
  }

  upstream command_api {
    server ${commandApi};
    keepalive 64;
    keepalive_timeout 60s;
    keepalive_requests 100000;
  }`;
}

function renderTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\$\{([A-Z_]+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for \${${name}} in the gateway template`);
    return value;
  });
}

/**
 * The configuration for `settings`. Also opens `runDir` for traversal (0711): nginx started as root runs its
 * workers as another user, who must reach the client_body directory to buffer a body larger than memory (a
 * mkdtemp directory is 0700, and the workers' writes there failed with 500).
 */
export async function gatewayConfig(settings: GatewaySettings): Promise<string> {
  await chmod(settings.runDir, 0o711);
  const template = await readFile(join(import.meta.dirname, "gateway.conf.template"), "utf8");
  return renderTemplate(template, {
    GATEWAY_ADDRESS: "127.0.0.1",
    GATEWAY_PORT: String(settings.port),
    UPSTREAMS: upstreams(settings.commandApi, settings.queryApis),
    RESOLVER: "",
    QUERY_API: "query_api",
    COMMAND_API: "command_api",
    NGINX_RUN_DIR: settings.runDir,
    BODY_LIMIT: `${Math.ceil((settings.bodyLimitBytes ?? 1024 * 1024) / 1024)}k`,
    METRICS_LOCATION: settings.metricsLocation ?? METRICS_NOT_PUBLIC,
  });
}
