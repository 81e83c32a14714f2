import { describe, expect, it } from "vitest";
import { parseAuditArgs, parseReplayArgs } from "../../services/projector/operator-args.ts";

describe("operator arguments", () => {
  it("replay takes nothing, or --until a position or an ISO time, with --out only beside --until", () => {
    expect(parseReplayArgs([])).toEqual({ until: null, out: null });
    expect(parseReplayArgs(["--until", "42"])).toEqual({ until: { kind: "position", position: 42 }, out: null });
    expect(parseReplayArgs(["--until", "2026-11-01T09:00:00Z", "--out", "x.sqlite"])).toEqual({
      until: { kind: "time", ms: Date.UTC(2026, 10, 1, 9) },
      out: "x.sqlite",
    });
    expect(() => parseReplayArgs(["--out", "x.sqlite"])).toThrow("--out");
    expect(() => parseReplayArgs(["--until"])).toThrow("--until: needs a value");
    expect(() => parseReplayArgs(["--until", "soon"])).toThrow("--until");
    expect(() => parseReplayArgs(["--since", "1"])).toThrow();
  });

  it("audit needs --entity with a uuid", () => {
    expect(parseAuditArgs(["--entity", "6f1c1f0e-8a4b-4c53-9a53-0d0c7c1f2a10"])).toEqual({
      entity: "6f1c1f0e-8a4b-4c53-9a53-0d0c7c1f2a10",
    });
    expect(() => parseAuditArgs([])).toThrow("--entity");
    expect(() => parseAuditArgs(["--entity", "page"])).toThrow("--entity");
  });
});
