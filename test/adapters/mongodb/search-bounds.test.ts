// What a MongoDB search asks of the server, checked without one: it ranks a bounded set of candidates (ids
// only, the most recently updated of the matching pages), scores occurrences in a bounded part of each body,
// and reads whole pages only for the page of hits, so a common word never scores every matching page in full.
import { describe, expect, it } from "vitest";
import {
  SCORE_BODY_CHARS,
  SEARCH_CANDIDATES,
  searchPipelines,
} from "../../../shared/adapters/mongodb/page-search.mongo.ts";
import { parseSearch } from "../../../shared/pages/page-search.ts";

const query = (q: string) => ({
  terms: parseSearch(q),
  visibleTo: { ownerIds: ["u1"], pageIds: [], folderIds: [] },
  limit: 20,
  offset: 0,
});

describe("the MongoDB search's bounds", () => {
  it("keeps at most SEARCH_CANDIDATES candidates, as ids, before any scoring", () => {
    const pipelines = searchPipelines(query("plan"));
    expect(pipelines).not.toBeNull();
    const stages = JSON.stringify(pipelines?.candidates);
    expect(stages).not.toContain("$regexFindAll");
    expect(pipelines?.candidates.at(-2)).toEqual({ $limit: SEARCH_CANDIDATES });
    expect(pipelines?.candidates.at(-1)).toEqual({ $project: { _id: 1 } });
  });

  it("scores only the candidates it is given, counting occurrences in the first SCORE_BODY_CHARS of a body, never its whole text", () => {
    const ranking = searchPipelines(query('plan "next step"'))?.ranking(["p1", "p2"]) ?? [];
    expect(ranking[0]).toEqual({ $match: { _id: { $in: ["p1", "p2"] } } });
    const scoring = JSON.stringify(ranking);
    expect(scoring).toContain("$regexFindAll");
    expect(scoring).not.toContain('"input":"$bodyText"');
    expect(scoring).toContain(JSON.stringify({ $substrCP: ["$bodyText", 0, SCORE_BODY_CHARS] }));
    expect(ranking).toContainEqual({ $limit: 21 });
  });
});
