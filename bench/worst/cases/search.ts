// The worst case of search: the costliest query the limits allow, over prose where every term is in every page.
import { get, type WorstCases } from "./worst-case.ts";

/** Over the fixture's prose: two prefixes of its commonest words, three 8-word phrases of it, eleven of its words. */
const WORST_SEARCH =
  'th* an* "the quarterly plan covers hiring the storage migration" "and the onboarding flow each team lists goals" ' +
  '"lists goals and risks the quarterly plan covers" plan covers hiring storage migration onboarding flow each team goals risks';

export const searchCases: WorstCases = {
  "GET /api/v1/search": {
    input:
      "the costliest query the limits allow (2 prefixes, 3 phrases of 8 words, 16 terms), every term in every page, grants received, limit 50",
    request: (w) => get(w.owner, `/search?q=${encodeURIComponent(WORST_SEARCH)}&limit=50`),
  },
};
