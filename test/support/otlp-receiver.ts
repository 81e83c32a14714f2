// A real OTLP/HTTP trace receiver on 127.0.0.1: accepts POST /v1/traces in OTLP's JSON encoding (what
// @opentelemetry/exporter-trace-otlp-http sends), decodes it and collects the spans with their service names. A
// protobuf body is answered 415, so an exporter set to protobuf fails visibly instead of sending nothing.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";

const anyValue = z.object({ stringValue: z.string().optional() }).loose();
const keyValue = z.object({ key: z.string(), value: anyValue });
/** OTLP/JSON ids are hex; an encoder that sends protobuf's base64 instead is read too. */
const id = z
  .string()
  .transform((value) =>
    /^[0-9a-f]*$/i.test(value) ? value.toLowerCase() : Buffer.from(value, "base64").toString("hex"),
  );
const spanSchema = z.object({
  traceId: id,
  spanId: id,
  parentSpanId: id.optional(),
  name: z.string(),
  kind: z.number().optional(),
  attributes: z.array(keyValue).optional(),
  links: z.array(z.object({ traceId: id, spanId: id })).optional(),
});
const exportSchema = z.object({
  resourceSpans: z.array(
    z.object({
      resource: z.object({ attributes: z.array(keyValue).optional() }).optional(),
      scopeSpans: z.array(z.object({ spans: z.array(spanSchema).optional() })).optional(),
    }),
  ),
});

export interface ReceivedSpan {
  readonly service: string;
  readonly traceId: string;
  readonly spanId: string;
  /** Empty for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  readonly attributes: Readonly<Record<string, string | undefined>>;
  readonly links: readonly { traceId: string; spanId: string }[];
}

export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Requests that were not OTLP/JSON trace exports. */
  readonly refused: string[] = [];

  private constructor(
    private readonly server: Server,
    /** The base URL: OTEL_EXPORTER_OTLP_ENDPOINT. */
    readonly endpoint: string,
  ) {}

  static async start(): Promise<OtlpReceiver> {
    const holder: { receiver: OtlpReceiver | null } = { receiver: null };
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const receiver = holder.receiver;
        const type = request.headers["content-type"] ?? "";
        if (!receiver || request.method !== "POST" || request.url !== "/v1/traces") {
          receiver?.refused.push(`${request.method ?? "?"} ${request.url ?? "?"}`);
          return response.writeHead(404).end();
        }
        if (!type.startsWith("application/json")) {
          receiver.refused.push(`content-type ${type}`);
          return response.writeHead(415).end();
        }
        const parsed = exportSchema.safeParse(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        if (!parsed.success) {
          receiver.refused.push(`not an OTLP export: ${parsed.error.message.slice(0, 200)}`);
          return response.writeHead(400).end();
        }
        receiver.collect(parsed.data);
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const receiver = new OtlpReceiver(server, `http://127.0.0.1:${port}`);
    holder.receiver = receiver;
    return receiver;
  }

  private collect(exported: z.infer<typeof exportSchema>): void {
    for (const resourceSpans of exported.resourceSpans) {
      const resource = Object.fromEntries(
        (resourceSpans.resource?.attributes ?? []).map((pair) => [pair.key, pair.value.stringValue]),
      );
      for (const scope of resourceSpans.scopeSpans ?? [])
        for (const span of scope.spans ?? [])
          this.spans.push({
            service: resource["service.name"] ?? "",
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? "",
            name: span.name,
            attributes: Object.fromEntries((span.attributes ?? []).map((pair) => [pair.key, pair.value.stringValue])),
            links: span.links ?? [],
          });
    }
  }

  /** The spans of one trace, once `done` holds of them, or fails after the deadline. */
  async trace(
    traceId: string,
    done: (spans: readonly ReceivedSpan[]) => boolean,
    deadlineMs = 20_000,
  ): Promise<ReceivedSpan[]> {
    const until = Date.now() + deadlineMs;
    for (;;) {
      const spans = this.spans.filter((span) => span.traceId === traceId);
      if (done(spans)) return spans;
      if (Date.now() > until)
        throw new Error(
          `trace ${traceId} incomplete: ${spans.map((span) => `${span.service}:${span.name}`).join(", ")}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The trace id of a W3C traceparent header. */
export function traceIdOf(traceparent: string): string {
  return traceparent.split("-")[1] ?? "";
}
