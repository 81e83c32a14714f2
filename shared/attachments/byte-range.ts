// The Range header of a GET as RFC 9110 §14 reads it, for one range of bytes: what to send of a file of
// `size` bytes. Several ranges, another unit or a malformed header are ignored (the whole file is sent, as the
// RFC allows); a range that starts past the end is unsatisfiable (416). Pure.

export type RangeAnswer = { kind: "whole" } | { kind: "part"; start: number; end: number } | { kind: "unsatisfiable" };

const SINGLE = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/;

export function rangeOf(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined) return { kind: "whole" };
  const match = SINGLE.exec(header);
  if (!match) return { kind: "whole" };
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return { kind: "whole" };
  if (first === "") {
    // A suffix: the last N bytes (all of them when N is larger than the file).
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "part", start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== "" && Number(last) < start) return { kind: "whole" };
  if (start >= size) return { kind: "unsatisfiable" };
  return { kind: "part", start, end };
}

/** If-None-Match or If-Range against a strong tag: a list of tags, or `*`; weak tags compare by their opaque part (RFC 9110 §13.1.2). */
export function matchesAny(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === etag);
}
