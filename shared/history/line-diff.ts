// A line-level summary of a content change: how many lines were added and removed, from a longest common
// subsequence of lines after the common head and tail are set aside. It runs once per change, when the change is
// projected, on the projector's thread: past a size bound (the two middles' line counts multiplied) the middles
// are compared as multisets of lines instead, in linear time (exact when no line moved; a moved line counts as
// unchanged), so two 500 KB documents cost milliseconds, not seconds.

const LCS_CELL_LIMIT = 1_000_000;

export interface LineSummary {
  readonly linesAdded: number;
  readonly linesRemoved: number;
}

const linesOf = (text: string): string[] => (text === "" ? [] : text.split(/\r?\n/));

/** Lines as small integers, so the quadratic loop compares numbers, not strings. */
function intern(a: readonly string[], b: readonly string[]): [Uint32Array, Uint32Array] {
  const ids = new Map<string, number>();
  const idOf = (line: string): number => {
    let id = ids.get(line);
    if (id === undefined) {
      id = ids.size;
      ids.set(line, id);
    }
    return id;
  };
  return [Uint32Array.from(a, idOf), Uint32Array.from(b, idOf)];
}

function commonLength(lineA: readonly string[], lineB: readonly string[]): number {
  if (lineA.length === 0 || lineB.length === 0) return 0;
  const [a, b] = intern(lineA, lineB);
  let previous = new Uint32Array(b.length + 1);
  let current = new Uint32Array(b.length + 1);
  for (const line of a) {
    for (let j = 1; j <= b.length; j += 1) {
      const above = previous[j] ?? 0;
      const left = current[j - 1] ?? 0;
      current[j] = line === b[j - 1] ? (previous[j - 1] ?? 0) + 1 : Math.max(above, left);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length] ?? 0;
}

function multisetCommon(a: readonly string[], b: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const line of a) counts.set(line, (counts.get(line) ?? 0) + 1);
  let common = 0;
  for (const line of b) {
    const left = counts.get(line) ?? 0;
    if (left > 0) {
      counts.set(line, left - 1);
      common += 1;
    }
  }
  return common;
}

export function summariseLines(before: string, after: string): LineSummary {
  const a = linesOf(before);
  const b = linesOf(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail])
    tail += 1;
  const middleA = a.slice(head, a.length - tail);
  const middleB = b.slice(head, b.length - tail);
  const common =
    middleA.length * middleB.length <= LCS_CELL_LIMIT
      ? commonLength(middleA, middleB)
      : multisetCommon(middleA, middleB);
  return { linesAdded: middleB.length - common, linesRemoved: middleA.length - common };
}
