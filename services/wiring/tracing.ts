// Installs the process's tracing from its config: the OpenTelemetry SDK is imported only when tracing is on.
import type { Config } from "../../shared/config/config.ts";
import { installTracing, noTracing, tracing, type Tracing } from "../../shared/tracing/tracing.port.ts";
import { tracingSettings } from "../../shared/tracing/tracing-settings.ts";

/** Starts tracing for this process (a no-op when the OTEL_* variables leave it off) and returns it. */
export async function startTracing(config: Config, service: string): Promise<Tracing> {
  const settings = tracingSettings(config, service);
  if (settings === null || tracing().enabled) return tracing();
  const { OtelTracing } = await import("../../shared/adapters/opentelemetry/otel.tracing.ts");
  const started = new OtelTracing(settings);
  installTracing(started);
  return started;
}

/** Flushes and stops the process's tracing; what is traced afterwards is dropped. */
export async function stopTracing(): Promise<void> {
  const current = tracing();
  installTracing(noTracing);
  await current.shutdown();
}
