// "import of a 1,000-file vault": one POST /imports/obsidian of 900 linked notes in 30 folders and 100 embedded
// images, timed end to end into a server of its own, with that server's peak resident memory.
import sharp from "sharp";
import { withOwnServer } from "./images.ts";

export interface VaultImportFigures {
  readonly files: number;
  readonly seconds: number;
  readonly pagesPerSecond: number;
  readonly status: number;
  readonly result: unknown;
  readonly peakMb: number;
}

async function vault(): Promise<Array<{ path: string; content: string }>> {
  const image = (
    await sharp({
      create: {
        width: 64,
        height: 64,
        channels: 3,
        background: "black",
        noise: { type: "gaussian", mean: 128, sigma: 40 },
      },
    })
      .png()
      .toBuffer()
  ).toString("base64");
  const files: Array<{ path: string; content: string }> = [];
  for (let index = 0; index < 900; index += 1) {
    const folder = `Area ${index % 30}/Topic ${index % 7}`;
    const body = [
      `# Note ${index}`,
      "",
      `Links to [[Note ${(index + 1) % 900}]] and [[Note ${(index + 17) % 900}|a friend]].`,
      index < 100 ? `![[pic-${index}.png]]` : "",
      "",
      "Lorem ipsum ".repeat(80),
    ];
    files.push({ path: `${folder}/Note ${index}.md`, content: `---\ntags: [bench]\n---\n${body.join("\n")}` });
  }
  for (let index = 0; index < 100; index += 1) files.push({ path: `attachments/pic-${index}.png`, content: image });
  return files;
}

export async function benchVaultImport(options: {
  secret: string;
  log: (line: string) => void;
}): Promise<VaultImportFigures> {
  const files = await vault();
  return withOwnServer(options.secret, async (server, cookie) => {
    options.log(`import: ${files.length} files in one POST /imports/obsidian`);
    const started = performance.now();
    const reply = await fetch(`${server.url}/api/v1/imports/obsidian`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ files }),
    });
    const result: unknown = await reply.json();
    const seconds = (performance.now() - started) / 1000;
    const pages =
      typeof result === "object" &&
      result !== null &&
      "pagesCreated" in result &&
      typeof result.pagesCreated === "number"
        ? result.pagesCreated
        : 0;
    return {
      files: files.length,
      seconds,
      pagesPerSecond: pages / seconds,
      status: reply.status,
      result,
      peakMb: server.memory().peakMb,
    };
  });
}
