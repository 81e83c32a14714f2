// Worst cases of what the process answers outside the API: health, readiness, metrics and its icon.
import type { WorstCases } from "./worst-case.ts";

export const serviceCases: WorstCases = {
  "GET /healthz": { input: "no work", request: () => ({ method: "GET", path: "/healthz" }) },
  "GET /readyz": {
    input: "stores pinged, lag counted up to 1,000 events or READY_MAX_BYTES of them",
    request: () => ({ method: "GET", path: "/readyz" }),
  },
  "GET /metrics": { input: "every metric of a busy process", request: () => ({ method: "GET", path: "/metrics" }) },
  "GET /favicon.ico": {
    input: "no work (an empty answer browsers keep for a day)",
    request: () => ({ method: "GET", path: "/favicon.ico" }),
  },
};
