// Which documented answers the conformance test has seen: every (operation, status) pair of the document must be
// answered at least once, or be listed below with the reason no test can provoke it. A pair neither seen nor
// listed fails the test, naming it; so does a listed pair that is seen after all (the list stays true).
import type { ResponseConformance } from "../openapi-conformance.ts";
import { documentedOperations } from "./documented.ts";

/** `operationId status` → why no test can provoke it. */
const UNPROVOKABLE: Readonly<Record<string, string>> = {};

export interface Coverage {
  readonly documented: number;
  readonly observed: number;
  /** Documented pairs neither answered nor listed as unprovokable. */
  readonly missing: readonly string[];
  /** Pairs listed as unprovokable that were answered after all. */
  readonly provoked: readonly string[];
}

export function coverageOf(conformance: ResponseConformance): Coverage {
  const seen = new Set(
    conformance.answered.flatMap(({ operationId, documentedAs }) =>
      documentedAs === null ? [] : [`${operationId} ${documentedAs}`],
    ),
  );
  const pairs = documentedOperations(conformance).flatMap((operation) =>
    operation.statuses.map((status) => ({
      key: `${operation.operationId} ${status}`,
      where: `${operation.method} ${operation.path}`,
    })),
  );
  return {
    documented: pairs.length,
    observed: pairs.filter(({ key }) => seen.has(key)).length,
    missing: pairs
      .filter(({ key }) => !seen.has(key) && !(key in UNPROVOKABLE))
      .map(({ key, where }) => `${key} (${where}) never answered`),
    provoked: Object.keys(UNPROVOKABLE).filter((key) => seen.has(key)),
  };
}
