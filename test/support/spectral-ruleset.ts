// The Spectral ruleset the API reference is linted with (test/http/api/openapi-lint.test.ts): `spectral:oas` as
// published (its recommended rules); every rule turned down below says why.
import { Ruleset } from "@stoplight/spectral-core";
import { oas } from "@stoplight/spectral-rulesets";

// Built through Ruleset, which validates the definition at run time: the published object's inferred types
// (severity as a plain string) do not match spectral-core's definition types.
export const spectralRuleset = new Ruleset({
  extends: [[oas, "recommended"]],
  rules: {
    // The API is run by whoever deploys it: there is no one contact to name in the document.
    "info-contact": "off",
  },
});
