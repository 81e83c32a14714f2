// Every refusal answers in the API's error shape, including those made before a route runs: a too-long path
// parameter, oversized headers, a body of an unsupported type, an empty JSON body, a method the path lacks.
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { beforeAll, expect, it } from "vitest";
import { TestServer, type TestUser } from "../../support/server.ts";
import { serverForFile } from "../../support/server-for-file.ts";

const file = serverForFile();
let ann: TestUser;
beforeAll(async () => {
  ann = await file.server.registered("ann");
});

const errorShape = (code: string) => ({ error: { code, message: expect.any(String) } });

it("answers a too-long path parameter with 414 in the error shape", async () => {
  const reply = await ann.get(`/pages/${"a".repeat(300)}`);
  expect(reply.status).toBe(414);
  expect(reply.body).toEqual(errorShape("uri_too_long"));
  expect(reply.text).not.toContain("FST_");
});

it("answers oversized headers with 431 in the error shape", async () => {
  const url = new URL(`${file.server.url}/api/v1/me`);
  const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, headers: { "x-big": "a".repeat(20_000) } },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end();
  });
  expect(status).toBe(431);
  expect(JSON.parse(body)).toEqual(errorShape("headers_too_large"));
});

it("answers a body of an unsupported type with 415 naming the accepted types, and an empty JSON body with 400", async () => {
  const xml = await ann.call("POST", "/pages", { body: "<page/>", headers: { "content-type": "application/xml" } });
  expect(xml.status).toBe(415);
  expect(xml.body).toEqual(errorShape("unsupported_media_type"));
  expect(xml.body.error?.message).toContain("application/json");
  const empty = await ann.call("POST", "/pages", { headers: { "content-type": "application/json" } });
  expect(empty.status).toBe(400);
  expect(empty.body).toEqual(errorShape("validation_failed"));
});

it("answers a method a known path lacks with 405 and Allow, and an unknown path with 404", async () => {
  const put = await ann.call("PUT", "/pages");
  expect(put.status).toBe(405);
  expect(put.body).toEqual(errorShape("method_not_allowed"));
  expect(put.headers.get("allow")).toBe("GET, HEAD, POST");
  const onPage = await ann.call("POST", `/pages/${crypto.randomUUID()}`);
  expect(onPage.status).toBe(405);
  expect(onPage.headers.get("allow")?.split(", ")).toEqual(expect.arrayContaining(["DELETE", "GET", "PATCH"]));
  expect((await ann.get("/no-such-thing")).status).toBe(404);
});

it("answers a text body sent to a route that takes JSON with 415: only page content takes text", async () => {
  for (const type of ["text/plain", "text/markdown"]) {
    const reply = await ann.call("POST", "/pages", { body: "title: x", headers: { "content-type": type } });
    expect(reply.status).toBe(415);
    expect(reply.body).toEqual(errorShape("unsupported_media_type"));
    expect(reply.body.error?.message).toContain("application/json");
  }
});

it("answers a request that does not arrive in time with 408 in the error shape", async () => {
  const slow = await TestServer.start({ settings: { REQUEST_TIMEOUT_MS: "1000" } });
  try {
    const url = new URL(slow.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        // The request line and one header, then nothing: a client that stalls.
        socket.write("POST /api/v1/pages HTTP/1.1\r\nHost: x\r\n");
      });
      let text = "";
      socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
      socket.on("close", () => resolve(text));
      socket.on("error", reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual(errorShape("request_timeout"));
  } finally {
    await slow.stop();
  }
});
