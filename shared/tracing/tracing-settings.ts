// What the OTEL_* variables ask of tracing, decided from the parsed config alone: null when tracing is off.
import type { Config } from "../config/config.ts";

export interface TracingSettings {
  readonly serviceName: string;
  /** The OTLP/HTTP traces URL. */
  readonly endpoint: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly resourceAttributes: Readonly<Record<string, string>>;
  readonly sampler: Config["OTEL_TRACES_SAMPLER"];
  readonly samplerRatio: number;
  readonly scheduleDelayMs: number;
  readonly maxQueueSize: number;
  readonly maxExportBatchSize: number;
}

/** The collector's default address when OTEL_TRACES_EXPORTER=otlp names none. */
const DEFAULT_ENDPOINT = "http://localhost:4318";

/**
 * On when an endpoint is set or OTEL_TRACES_EXPORTER=otlp, unless OTEL_SDK_DISABLED=true or
 * OTEL_TRACES_EXPORTER=none: a process without OTEL_* variables traces nothing and loads nothing.
 */
export function tracingSettings(config: Config, service: string): TracingSettings | null {
  if (config.OTEL_SDK_DISABLED || config.OTEL_TRACES_EXPORTER === "none") return null;
  const base = config.OTEL_EXPORTER_OTLP_ENDPOINT;
  const traces = config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (config.OTEL_TRACES_EXPORTER === undefined && base === undefined && traces === undefined) return null;
  return {
    serviceName: config.OTEL_SERVICE_NAME ?? `workspace-${service}`,
    endpoint: traces ?? `${(base ?? DEFAULT_ENDPOINT).replace(/\/+$/, "")}/v1/traces`,
    headers: { ...config.OTEL_EXPORTER_OTLP_HEADERS, ...config.OTEL_EXPORTER_OTLP_TRACES_HEADERS },
    timeoutMs: config.OTEL_EXPORTER_OTLP_TIMEOUT,
    resourceAttributes: { ...config.OTEL_RESOURCE_ATTRIBUTES },
    sampler: config.OTEL_TRACES_SAMPLER,
    samplerRatio: config.OTEL_TRACES_SAMPLER_ARG,
    scheduleDelayMs: config.OTEL_BSP_SCHEDULE_DELAY,
    maxQueueSize: config.OTEL_BSP_MAX_QUEUE_SIZE,
    maxExportBatchSize: config.OTEL_BSP_MAX_EXPORT_BATCH_SIZE,
  };
}
