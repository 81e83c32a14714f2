// The property that ties import and export: a generated vault imported, exported, and that export imported as it
// is (the zip, over HTTP) into an empty workspace gives the same pages (tree, titles, icons, contents up to ids,
// image and attachment bytes), and exporting that again gives the same files. Few runs (each one is two imports and three
// exports over HTTP).
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeImage } from "../../support/images.ts";
import { TestServer, type Client } from "../../support/server.ts";
import { exportVault, fileDigest, importZip, workspaceSnapshot } from "../../support/vault-zip.ts";

let server: TestServer;
let images: Array<{ name: string; base64: string }>;
/** Files of other kinds: they become attachments of the notes that link them. */
const files = [
  { name: "report.pdf", base64: Buffer.from("%PDF-1.7\n%%EOF\n").toString("base64") },
  { name: "talk.mp3", base64: Buffer.concat([Buffer.from("ID3"), Buffer.alloc(600, 7)]).toString("base64") },
];
beforeAll(async () => {
  server = await TestServer.start();
  images = [
    { name: "diagram.png", base64: (await makeImage("png", 16, 12)).toString("base64") },
    { name: "photo.jpg", base64: (await makeImage("jpeg", 20, 10)).toString("base64") },
  ];
});
afterAll(async () => {
  await server.stop();
});

const DIRECTORIES = ["", "Projects", "Projects/2026", "Notes", "Archive/Old"];
const ICONS = ["🗺️", "🌱", "📓"];
/** Titles mix plain letters with what no file system or link accepts as it is. */
const titleCharacter = fc.constantFrom(...'aBz09 /\\:*?"<>|#^[].%é_-'.split(""));
const title = fc
  .tuple(
    fc.constantFrom("A", "b", "CON", "Plan", "née"),
    fc.array(titleCharacter, { maxLength: 8 }),
    fc.constantFrom("x", "Z", "1", "ü"),
  )
  .map(([head, middle, tail]) => `${head}${middle.join("")}${tail}`);
// No `<` in link texts: `<!x` opens raw HTML that any later `>` on the paragraph closes (the import's own
// `Note > Heading` texts hold one), so the first workspace would hold HTML where the vault held links.
const aliasText = fc
  .array(fc.constantFrom(..."ab Z*_~&!#é".split("")), { minLength: 1, maxLength: 6 })
  .map((characters) => `a${characters.join("")}b`);
const heading = fc.constantFrom("Intro", "Next steps", "Q3 goals");

interface GeneratedNote {
  readonly directory: string;
  readonly title: string | null;
  readonly icon: string | null;
  readonly tags: boolean;
  readonly pieces: ReadonlyArray<readonly [number, number, string, string]>;
}

const note: fc.Arbitrary<GeneratedNote> = fc.record({
  directory: fc.constantFrom(...DIRECTORIES),
  title: fc.option(title, { nil: null }),
  icon: fc.option(fc.constantFrom(...ICONS), { nil: null }),
  tags: fc.boolean(),
  // [form, which note, image or file, an alias, a heading]
  pieces: fc.array(fc.tuple(fc.nat(17), fc.nat(9), aliasText, heading), { maxLength: 6 }),
});

/** One piece of a note's body in the form `form` names, pointing at note `target` (by file stem), an image or a file. */
function piece(form: number, target: string, image: string, file: string, alias: string, heading: string): string {
  switch (form) {
    case 0:
      return `[[${target}]]`;
    case 1:
      return `[[${target}|${alias}]]`;
    case 2:
      return `[[${target}#${heading}]]`;
    case 3:
      return `[[${target}#${heading}|${alias}]]`;
    case 4:
      return `![[${target}]]`;
    case 5:
      return `[[#${heading}]] [[#^block-1|${alias}]]`;
    case 6:
      return `\n\n| link | note |\n|---|---|\n| [[${target}\\|${alias}]] | [[${target}#${heading}\\|]] |\n\n`;
    case 7:
      return `![[${image}]]`;
    case 8:
      return `![[${image}|100x80]] ![[${image}#top]]`;
    case 9:
      return `[[${image}|${alias}]]`;
    case 10:
      return `![${alias}](attachments/${image})`;
    case 11:
      return `[${alias}](${encodeURI(`${target}.md`)}#${encodeURI(heading)})`;
    case 12:
      return "`[[not a link]]` and [[Nobody here]]";
    case 14:
      return `[[${file}]]`;
    case 15:
      return `[[${file}|${alias}]]`;
    case 16:
      return `![[${file}]]`;
    case 17:
      return `[${alias}](attachments/${file})`;
    default:
      return `[[${target}#|${alias}]] [[${target}#${heading}|]]`;
  }
}

function vaultOf(notes: readonly GeneratedNote[]): Array<{ path: string; content: string }> {
  const notesOf = notes.map((generated, index) => {
    const frontmatter = [
      ...(generated.title === null ? [] : [`title: ${JSON.stringify(generated.title)}`]),
      ...(generated.icon === null ? [] : [`icon: ${generated.icon}`]),
      ...(generated.tags ? ["tags: [one, two]"] : []),
    ];
    const body = generated.pieces
      .map(([form, which, alias, heading]) => {
        const target = notes.length === 0 ? "" : `Note ${which % notes.length}`;
        const image = images[which % images.length]?.name ?? "diagram.png";
        const file = files[which % files.length]?.name ?? "report.pdf";
        return piece(form, target, image, file, alias, heading);
      })
      .join(" ");
    const markdown = `# Intro\n\nText of note ${index}. ${body}\n\n## Next steps\n\nMore. ^block-1\n`;
    const path = `${generated.directory === "" ? "" : `${generated.directory}/`}Note ${index}.md`;
    return { path, content: frontmatter.length > 0 ? `---\n${frontmatter.join("\n")}\n---\n${markdown}` : markdown };
  });
  return [
    ...notesOf,
    ...[...images, ...files].map((file) => ({ path: `attachments/${file.name}`, content: file.base64 })),
  ];
}

async function imported(user: Client, files: Array<{ path: string; content: string }>): Promise<void> {
  const reply = await user.call("POST", "/imports/obsidian", { json: { files } });
  expect(reply.status, reply.text).toBe(201);
}

const sorted = <T>(items: T[]): T[] =>
  items
    .map((item) => JSON.stringify(item))
    .sort()
    .map((item) => JSON.parse(item) as T);

describe("the round trip over generated vaults", () => {
  it("import, export, import the zip as it is into an empty workspace: the same pages; export again: the same files", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(note, { minLength: 1, maxLength: 6 }), async (notes) => {
        run += 1;
        const first = await server.registered(`first${run}`);
        await imported(first, vaultOf(notes));
        const exported = await exportVault(first);
        expect(exported.status, exported.text).toBe(200);
        const second = await server.registered(`second${run}`);
        const zipped = await importZip(second, exported.bytes);
        expect(zipped.status, zipped.text).toBe(201);
        expect(sorted(await workspaceSnapshot(second))).toEqual(sorted(await workspaceSnapshot(first)));
        const again = await exportVault(second);
        expect(fileDigest(again.files)).toEqual(fileDigest(exported.files));
      }),
      { numRuns: 20, endOnFailure: true },
    );
  }, 120_000);
});
