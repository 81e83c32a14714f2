// A YAML "billion laughs": anchors whose aliases expand exponentially (ten items, then four levels of ten aliases
// to the level below), as hostile frontmatter would hold.
export function aliasBomb(): string {
  const names = ["a", "b", "c", "d", "e"];
  const lines = [`a: &a [${Array.from({ length: 10 }, () => "x").join(", ")}]`];
  for (let level = 1; level < names.length; level += 1) {
    lines.push(
      `${names[level]}: &${names[level]} [${Array.from({ length: 10 }, () => `*${names[level - 1]}`).join(", ")}]`,
    );
  }
  return `${lines.join("\n")}\n`;
}
