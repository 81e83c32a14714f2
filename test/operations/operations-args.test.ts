// The flags of npm run backup, restore and projections, parsed by zod: a bad value names the flag.
import { expect, it } from "vitest";
import { parseBackupArgs, parseProjectionsArgs, parseRestoreArgs } from "../../services/operations/operations-args.ts";

it("parses backup, restore and projections flags and names the flag of a bad one", () => {
  expect(parseBackupArgs(["--to", "/backups/today"])).toEqual({ to: "/backups/today" });
  expect(() => parseBackupArgs([])).toThrow(/--to/);
  expect(parseRestoreArgs(["--from", "b", "--erasures-from", "old"])).toEqual({
    from: "b",
    erasuresFrom: "old",
    kekFrom: null,
  });
  expect(parseRestoreArgs(["--erasures-from", "old"])).toEqual({ from: null, erasuresFrom: "old", kekFrom: null });
  expect(() => parseRestoreArgs([])).toThrow(/give --from/);
  expect(() => parseRestoreArgs(["--erasures-from", "old", "--kek-from", "k"])).toThrow(/--kek-from: only with --from/);
  expect(() => parseRestoreArgs(["--from"])).toThrow(/--from: needs a value/);
  expect(parseProjectionsArgs(["--list"])).toEqual({ action: "list" });
  expect(parseProjectionsArgs(["--retry"])).toEqual({ action: "retry" });
  expect(parseProjectionsArgs(["--skip", "e1", "--projection", "pages"])).toEqual({
    action: "skip",
    eventId: "e1",
    projection: "pages",
  });
  expect(() => parseProjectionsArgs(["--skip", "e1", "--projection", "nope"])).toThrow(/--projection/);
  expect(() => parseProjectionsArgs(["--list", "--retry"])).toThrow(/one of --list/);
  expect(() => parseProjectionsArgs(["--list", "--list"])).toThrow(/given twice/);
});
