// The tracing port: coarse spans over a request's path through the services, carried between them as a W3C
// `traceparent`. Off by default; the process installs an OpenTelemetry implementation at start when the OTEL_*
// variables ask for one (shared/tracing/start-tracing.ts), so a process without them never loads the SDK.
import { z } from "zod";

/** A W3C trace context header: version 00, trace id, parent span id, flags. */
export const traceparentSchema = z
  .string()
  .regex(/^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/, "a W3C traceparent");

export type SpanKind = "server" | "client" | "producer" | "consumer" | "internal";
type SpanAttributes = Readonly<Record<string, string | number | boolean>>;

export interface SpanOptions {
  readonly kind?: SpanKind;
  readonly attributes?: SpanAttributes;
  /**
   * The span's parent, as a traceparent from another process or from an event's metadata; null (or a malformed
   * one) starts a new trace, whatever span is active; absent, the span active in this async context (a new trace
   * when none is).
   */
  readonly parent?: string | null;
  /** Further contexts the span follows from (the other events of a projection batch). */
  readonly links?: readonly string[];
}

export interface ActiveSpan {
  setAttributes(attributes: SpanAttributes): void;
  /**
   * Marks the span failed, with `error.type` the error's class name, or the given type (an HTTP status): never an
   * error's message, which may carry personal data.
   */
  fail(error: unknown): void;
  /** This span as a traceparent, to hand on; null when it is not sampled. */
  traceparent(): string | null;
  end(): void;
}

export interface Tracing {
  readonly enabled: boolean;
  /** Runs `work` inside a new span, ended when it settles (failed when it throws). */
  inSpan<T>(name: string, options: SpanOptions, work: (span: ActiveSpan) => Promise<T>): Promise<T>;
  /** Starts a span ended by the caller (a request from one hook to another); `within` makes it the active one. */
  startSpan(name: string, options: SpanOptions): ActiveSpan;
  within<T>(span: ActiveSpan, work: () => T): T;
  /** The active span as a traceparent; null when none is, or it is not sampled. */
  traceparent(): string | null;
  /** Sends what is buffered (bounded by the export timeout; never throws) and stops exporting. */
  shutdown(): Promise<void>;
}

const noSpan: ActiveSpan = {
  setAttributes: () => undefined,
  fail: () => undefined,
  traceparent: () => null,
  end: () => undefined,
};

/** Tracing off: every call is a no-op that allocates nothing. */
export const noTracing: Tracing = {
  enabled: false,
  inSpan: (_name, _options, work) => work(noSpan),
  startSpan: () => noSpan,
  within: (_span, work) => work(),
  traceparent: () => null,
  shutdown: () => Promise.resolve(),
};

let installed: Tracing = noTracing;

/**
 * The process's tracing. Like OpenTelemetry's own API, one per process: spans follow work through modules that
 * share no ports (a request's handler, the event store beneath it), so it is installed once at start.
 */
export function tracing(): Tracing {
  return installed;
}

export function installTracing(implementation: Tracing): void {
  installed = implementation;
}
