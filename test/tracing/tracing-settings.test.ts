// When the OTEL_* variables turn tracing on, where spans then go, and how the OpenTelemetry tracing continues a trace.
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../shared/config/config.ts";
import { OtelTracing } from "../../shared/adapters/opentelemetry/otel.tracing.ts";
import { tracingSettings } from "../../shared/tracing/tracing-settings.ts";

const settings = (env: Record<string, string>) => tracingSettings(loadConfig(env), "command-api");

describe("tracing settings from the OTEL_* variables", () => {
  it("is off with none of them set, and with only a service name or sampler set", () => {
    expect(settings({})).toBeNull();
    expect(settings({ OTEL_SERVICE_NAME: "api", OTEL_TRACES_SAMPLER: "always_on" })).toBeNull();
  });

  it("is off with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none, whatever endpoint is set", () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" };
    expect(settings({ ...endpoint, OTEL_SDK_DISABLED: "true" })).toBeNull();
    expect(settings({ ...endpoint, OTEL_TRACES_EXPORTER: "none" })).toBeNull();
    expect(settings({ ...endpoint, OTEL_SDK_DISABLED: "false" })).not.toBeNull();
  });

  it("sends to <endpoint>/v1/traces, to the traces endpoint as given, or to the local collector with the exporter named", () => {
    expect(settings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" })?.endpoint).toBe(
      "http://collector:4318/v1/traces",
    );
    expect(
      settings({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example.com/otlp",
      })?.endpoint,
    ).toBe("https://traces.example.com/otlp");
    expect(settings({ OTEL_TRACES_EXPORTER: "otlp" })?.endpoint).toBe("http://localhost:4318/v1/traces");
  });

  it("names the service after the process unless told, and reads headers and resource attributes as key=value lists", () => {
    const on = settings({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
      OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20abc,x-team=docs",
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: "x-team=tracing",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=prod",
    });
    expect(on?.serviceName).toBe("workspace-command-api");
    expect(on?.headers).toEqual({ authorization: "Bearer abc", "x-team": "tracing" });
    expect(on?.resourceAttributes).toEqual({ "deployment.environment": "prod" });
    expect(
      settings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SERVICE_NAME: "api-eu" })?.serviceName,
    ).toBe("api-eu");
  });

  it("refuses a malformed list or sampler, naming the variable", () => {
    expect(() => loadConfig({ OTEL_RESOURCE_ATTRIBUTES: "=prod" })).toThrow(/OTEL_RESOURCE_ATTRIBUTES/);
    expect(() => loadConfig({ OTEL_TRACES_SAMPLER: "sometimes" })).toThrow(/OTEL_TRACES_SAMPLER/);
    expect(() => loadConfig({ OTEL_TRACES_SAMPLER_ARG: "2" })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
  });
});

describe("the OpenTelemetry tracing", () => {
  it("continues a given trace context, and shuts down cleanly though its collector cannot be reached", async () => {
    const settings = tracingSettings(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" }), "test");
    if (!settings) throw new Error("tracing should be on");
    const traces = new OtelTracing({ ...settings, timeoutMs: 500 });
    const given = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const child = await traces.inSpan("child", { parent: given }, async () => traces.traceparent());
    expect(child?.split("-")[1]).toBe("0af7651916cd43dd8448eb211c80319c");
    expect(child).not.toBe(given);
    const fresh = await traces.inSpan("fresh", { parent: null }, async (span) => span.traceparent());
    expect(fresh?.split("-")[1]).not.toBe("0af7651916cd43dd8448eb211c80319c");
    await expect(traces.shutdown()).resolves.toBeUndefined();
  });
});
