// Renders the gateway's nginx configuration from gateway.conf.template, as envsubst would: ${NAME}
// placeholders are filled in, nginx's own $variables are left alone. Used by `npm run split` and the tests.
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
export const METRICS_NOT_PUBLIC = `default_type application/json;
      return 404 '{"error":{"code":"not_found","message":"no such route"}}';`;

export function renderTemplate(template: string, values: Record<string, string>): string {
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
    COMMAND_API: settings.commandApi,
    QUERY_API_SERVERS: settings.queryApis.map((host) => `server ${host} max_fails=1 fail_timeout=5s;`).join("\n    "),
    NGINX_RUN_DIR: settings.runDir,
    BODY_LIMIT: `${Math.ceil((settings.bodyLimitBytes ?? 1024 * 1024) / 1024)}k`,
    METRICS_LOCATION: settings.metricsLocation ?? METRICS_NOT_PUBLIC,
  });
}
