// One server span per HTTP request when tracing is on, continuing the caller's W3C `traceparent` (the gateway
// passes it through): started in onRequest, made active again once the body is read (a request stream's events
// lose the async context), ended in onResponse with the status. Fastify's hooks are all it takes, so no
// instrumentation package patches node's http.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { tracing, type ActiveSpan } from "../tracing/tracing.port.ts";

export function installRequestSpans(app: FastifyInstance): void {
  const traces = tracing();
  if (!traces.enabled) return;
  const spans = new WeakMap<FastifyRequest, ActiveSpan>();
  const resume = (request: FastifyRequest, done: () => void): void => {
    const span = spans.get(request);
    if (span) traces.within(span, done);
    else done();
  };
  app.addHook("onRequest", (request, _reply, done) => {
    const given = request.headers.traceparent;
    const route = request.routeOptions.url ?? "(unmatched)";
    const span = traces.startSpan(`${request.method} ${route}`, {
      kind: "server",
      parent: typeof given === "string" ? given : null,
      attributes: { "http.request.method": request.method, "http.route": route, "workspace.request_id": request.id },
    });
    spans.set(request, span);
    traces.within(span, done);
  });
  app.addHook("preValidation", (request, _reply, done) => resume(request, done));
  app.addHook("preHandler", (request, _reply, done) => resume(request, done));
  // A client that goes away before its answer: the span ends there, so it is exported all the same.
  app.addHook("onRequestAbort", (request, done) => {
    const span = spans.get(request);
    if (span) {
      span.setAttributes({ "workspace.request.aborted": true });
      span.end();
      spans.delete(request);
    }
    done();
  });
  app.addHook("onResponse", (request, reply, done) => {
    const span = spans.get(request);
    if (span) {
      span.setAttributes({ "http.response.status_code": reply.statusCode });
      if (reply.statusCode >= 500) span.fail(String(reply.statusCode));
      span.end();
      spans.delete(request);
    }
    done();
  });
}
