// Every operation that spends a rate-limit budget (shared/rate-limit/request-class.ts says which) answers 429
// rate_limited with Retry-After once its caller's budget is spent: asked twice on a server whose every class
// allows one request an hour, the second answer is 429, whoever asks (a session, or a browser without an
// account on the public pages).
import { rateLimitClassOf } from "../../../shared/rate-limit/request-class.ts";
import type { ResponseConformance } from "../openapi-conformance.ts";
import { documentedOperations, exampleBody, filled } from "./documented.ts";
import { expectAnswer, type Prober } from "./probe.ts";

/** The settings of a server where each class allows one request per caller in an hour. */
export const ONE_AN_HOUR = Object.fromEntries(
  ["READ", "WRITE", "SEARCH", "UPLOAD", "IMPORT", "SHARING"].map((rateClass) => [`RATE_LIMIT_${rateClass}`, "1/1h"]),
);

export async function rateLimited({
  prober,
  conformance,
}: {
  prober: Prober;
  conformance: ResponseConformance;
}): Promise<void> {
  const user = await prober.stranger("limited");
  const anyone = prober.as({});
  const limited = documentedOperations(conformance).filter(
    ({ method, path }) => rateLimitClassOf(method, path.replace(/\{([A-Za-z]+)\}/g, ":$1")) !== null,
  );
  for (const operation of limited) {
    const caller = operation.secured ? user : anyone;
    const sent = exampleBody(operation);
    await caller.send(operation.method, filled(operation), sent);
    expectAnswer(
      await caller.send(operation.method, filled(operation), sent),
      429,
      `${operation.operationId} asked again`,
    );
  }
}
