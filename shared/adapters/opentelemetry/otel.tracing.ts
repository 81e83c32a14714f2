// The tracing port over the OpenTelemetry SDK: spans exported over OTLP/HTTP (JSON) in batches, the active span
// kept per async context, W3C trace context between processes. Loaded only when tracing is on. Nothing is
// registered globally: the provider, the context manager and the propagator belong to this object, so a process
// (or a test) holds exactly the tracing it installed.
import {
  ROOT_CONTEXT,
  SpanKind as OtelSpanKind,
  SpanStatusCode,
  defaultTextMapGetter,
  defaultTextMapSetter,
  trace,
  type Context,
  type Link,
  type Span,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
} from "@opentelemetry/sdk-trace";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import type { ActiveSpan, SpanKind, SpanOptions, Tracing } from "../../tracing/tracing.port.ts";
import type { TracingSettings } from "../../tracing/tracing-settings.ts";

const KINDS: Record<SpanKind, OtelSpanKind> = {
  server: OtelSpanKind.SERVER,
  client: OtelSpanKind.CLIENT,
  producer: OtelSpanKind.PRODUCER,
  consumer: OtelSpanKind.CONSUMER,
  internal: OtelSpanKind.INTERNAL,
};

function samplerOf(settings: TracingSettings): Sampler {
  const ratio = new TraceIdRatioBasedSampler(settings.samplerRatio);
  switch (settings.sampler) {
    case "always_on":
      return new AlwaysOnSampler();
    case "always_off":
      return new AlwaysOffSampler();
    case "traceidratio":
      return ratio;
    case "parentbased_always_on":
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: ratio });
  }
}

class OtelSpan implements ActiveSpan {
  constructor(
    readonly span: Span,
    readonly context: Context,
    private readonly propagator: W3CTraceContextPropagator,
  ) {}

  setAttributes(attributes: Readonly<Record<string, string | number | boolean>>): void {
    this.span.setAttributes(attributes);
  }

  fail(error: unknown): void {
    const type = typeof error === "string" ? error : error instanceof Error ? error.name : typeof error;
    this.span.setAttribute("error.type", type);
    this.span.setStatus({ code: SpanStatusCode.ERROR, message: type });
  }

  traceparent(): string | null {
    const carrier: Record<string, string> = {};
    this.propagator.inject(this.context, carrier, defaultTextMapSetter);
    return carrier["traceparent"] ?? null;
  }

  end(): void {
    this.span.end();
  }
}

export class OtelTracing implements Tracing {
  readonly enabled = true;
  private readonly provider: TracerProvider;
  private readonly tracer;
  private readonly contexts = new AsyncLocalStorageContextManager();
  private readonly propagator = new W3CTraceContextPropagator();

  constructor(settings: TracingSettings) {
    const exporter = new OTLPTraceExporter({
      url: settings.endpoint,
      headers: { ...settings.headers },
      timeoutMillis: settings.timeoutMs,
    });
    this.provider = new TracerProvider({
      resource: resourceFromAttributes({ ...settings.resourceAttributes, [ATTR_SERVICE_NAME]: settings.serviceName }),
      sampler: samplerOf(settings),
      spanProcessors: [
        new BatchSpanProcessor({
          exporter,
          scheduledDelayMillis: settings.scheduleDelayMs,
          maxQueueSize: settings.maxQueueSize,
          maxExportBatchSize: Math.min(settings.maxExportBatchSize, settings.maxQueueSize),
        }),
      ],
    });
    this.tracer = this.provider.getTracer("workspace-backend");
    this.contexts.enable();
  }

  private contextOf(traceparent: string): Context | null {
    const context = this.propagator.extract(ROOT_CONTEXT, { traceparent }, defaultTextMapGetter);
    return trace.getSpanContext(context) ? context : null;
  }

  startSpan(name: string, options: SpanOptions): OtelSpan {
    const parent =
      options.parent === undefined
        ? this.contexts.active()
        : ((options.parent === null ? null : this.contextOf(options.parent)) ?? ROOT_CONTEXT);
    const links: Link[] = [];
    for (const traceparent of options.links ?? []) {
      const linked = this.contextOf(traceparent);
      const spanContext = linked ? trace.getSpanContext(linked) : undefined;
      if (spanContext) links.push({ context: spanContext });
    }
    const span = this.tracer.startSpan(
      name,
      {
        kind: KINDS[options.kind ?? "internal"],
        ...(options.attributes ? { attributes: { ...options.attributes } } : {}),
        links,
      },
      parent,
    );
    return new OtelSpan(span, trace.setSpan(parent, span), this.propagator);
  }

  within<T>(span: ActiveSpan, work: () => T): T {
    return span instanceof OtelSpan ? this.contexts.with(span.context, work) : work();
  }

  async inSpan<T>(name: string, options: SpanOptions, work: (span: ActiveSpan) => Promise<T>): Promise<T> {
    const span = this.startSpan(name, options);
    try {
      return await this.contexts.with(span.context, () => work(span));
    } catch (error) {
      span.fail(error);
      throw error;
    } finally {
      span.end();
    }
  }

  traceparent(): string | null {
    const context = this.contexts.active();
    if (!trace.getSpanContext(context)) return null;
    const carrier: Record<string, string> = {};
    this.propagator.inject(context, carrier, defaultTextMapSetter);
    return carrier["traceparent"] ?? null;
  }

  /** A collector that cannot be reached loses the last spans; it never fails the process's shutdown. */
  async shutdown(): Promise<void> {
    try {
      await this.provider.shutdown();
    } catch {
      // The spans still buffered are dropped, as a failed export drops them while running.
    } finally {
      this.contexts.disable();
    }
  }
}
