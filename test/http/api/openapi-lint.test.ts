// The API reference passes two linters no one here wrote: Spectral's `spectral:oas` and Redocly's recommended
// rules, with no errors and only the warnings their ruleset files (test/support/spectral-ruleset.ts,
// redocly.yaml) turn down and justify.
import { resolve } from "node:path";
import { loadConfig, lintFromString } from "@redocly/openapi-core";
import { Document, Spectral } from "@stoplight/spectral-core";
import { Json } from "@stoplight/spectral-parsers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spectralRuleset } from "../../support/spectral-ruleset.ts";
import { TestServer } from "../../support/server.ts";

let server: TestServer;
let source: string;

beforeAll(async () => {
  server = await TestServer.start();
  const reply = await server.anonymous().get("/api/v1/openapi.json");
  expect(reply.status).toBe(200);
  source = JSON.stringify(JSON.parse(reply.text), null, 2);
});
afterAll(async () => {
  await server.stop();
});

describe("the OpenAPI document under third-party linters", () => {
  it("passes Spectral's spectral:oas with no problems left", async () => {
    const spectral = new Spectral();
    spectral.setRuleset(spectralRuleset);
    const results = await spectral.run(new Document(source, Json, "openapi.json"));
    const problems = results.map((result) => `${result.code} ${result.path.join(".")}: ${result.message}`);
    expect(problems).toEqual([]);
  });

  it("passes Redocly's recommended rules with no problems left", async () => {
    const config = await loadConfig({ configPath: resolve(import.meta.dirname, "../../../redocly.yaml") });
    const results = await lintFromString({ source, absoluteRef: "openapi.json", config });
    const problems = results.map(
      (problem) => `${problem.ruleId} ${problem.location[0]?.pointer ?? ""}: ${problem.message}`,
    );
    expect(problems).toEqual([]);
  });
});
