// The SDK v2 serves web-standard Requests and answers Responses; fastify has node's request and response. A
// Request is built from what fastify parsed (the body, already JSON), aborted when the client goes away, and the
// Response is written on node's response, streaming when it is a stream (subscriptions/listen, a 2025 GET).
import type { FastifyReply, FastifyRequest } from "fastify";

export function webRequestOf(request: FastifyRequest, reply: FastifyReply): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const aborted = new AbortController();
  reply.raw.once("close", () => aborted.abort());
  const hasBody = request.method === "POST" && request.body !== undefined;
  if (hasBody) headers.delete("content-length");
  return new Request(`${request.protocol}://${request.host}${request.url}`, {
    method: request.method,
    headers,
    signal: aborted.signal,
    ...(hasBody ? { body: JSON.stringify(request.body) } : {}),
  });
}

/** Writes a Response on node's response, which fastify then no longer answers; headers set on it before stay. */
export async function sendWebResponse(reply: FastifyReply, response: Response): Promise<void> {
  reply.hijack();
  const raw = reply.raw;
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  raw.writeHead(response.status, headers);
  if (!response.body) {
    raw.end();
    return;
  }
  const reader = response.body.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  raw.once("close", stop);
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      raw.write(chunk.value);
    }
  } catch {
    // The client went away, or the stream failed: nothing more can be answered.
  } finally {
    raw.off("close", stop);
    raw.end();
  }
}
