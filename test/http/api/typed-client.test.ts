// The typed client (client/): generated from the API reference by openapi-typescript, checked current against the
// document the server serves, driven with openapi-fetch as a user of the API would. The script of every operation
// (test/support/every-operation.ts) compiles alone with `tsc --strict` against types generated from the served
// document, with no `as`, no `!` and no `any`; test/http/api/api-conformance.test.ts runs it against the server.
import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintSession, SESSION_COOKIE } from "../../../shared/auth/session-verifier.ts";
import { createWorkspaceClient, type paths } from "../../../client/index.ts";
import { API_TYPES_FILE, generateApiTypes } from "../../support/api-types.ts";
import { makeImage } from "../../support/images.ts";
import { TEST_SESSION_SECRET, TestServer } from "../../support/server.ts";

const SCRIPT = "test/support/every-operation.ts";
/** The one polling helper the script waits with. */
const POLL = "test/support/poll.ts";

const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  allowImportingTsExtensions: true,
  skipLibCheck: true,
  types: ["node"],
};

const compileErrors = (program: ts.Program): string[] =>
  ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));

/** What the script may not contain: casts, non-null assertions, `any`. */
function shortcutsIn(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node) || ts.isSatisfiesExpression(node))
      found.push(`a cast: ${node.getText(source)}`);
    if (ts.isNonNullExpression(node)) found.push(`a non-null assertion: ${node.getText(source)}`);
    if (node.kind === ts.SyntaxKind.AnyKeyword) found.push(`any: ${node.parent.getText(source)}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});

describe("a client generated from the API reference", () => {
  it("is generated from the document the server serves now (npm run api-types rewrites it)", async () => {
    const reply = await server.anonymous().get("/api/v1/openapi.json");
    expect(await generateApiTypes(reply.text)).toBe(await readFile(API_TYPES_FILE, "utf8"));
  }, 30_000);

  it("compiles a script calling every operation with tsc --strict against types generated from the served document, with no cast, no ! and no any", async () => {
    const reply = await server.anonymous().get("/api/v1/openapi.json");
    // Inside the repository, so the script's imports of openapi-fetch resolve as they would in a user's project.
    const dir = await mkdtemp(join(process.cwd(), ".typed-client-"));
    try {
      await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module" }));
      await cp("client/index.ts", join(dir, "client/index.ts"));
      await writeFile(join(dir, "client/api.generated.ts"), await generateApiTypes(reply.text));
      await cp(SCRIPT, join(dir, SCRIPT));
      await cp(POLL, join(dir, POLL));
      const program = ts.createProgram([join(dir, SCRIPT)], COMPILER_OPTIONS);
      expect(compileErrors(program)).toEqual([]);
      const script = program.getSourceFile(join(dir, SCRIPT));
      if (!script) throw new Error("the script was not compiled");
      expect(shortcutsIn(script)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("runs the README's example of the typed client, compiled with tsc --strict: markdown read and written with no option", async () => {
    const readme = await readFile("README.md", "utf8");
    const example = /## Typed client[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    if (!example) throw new Error("no TypeScript example under README's Typed client");
    expect(example).not.toContain("parseAs");
    const dir = await mkdtemp(join(process.cwd(), ".typed-client-"));
    try {
      const file = join(dir, "example.ts");
      // The package's name resolves to its built files; here the example runs against the sources.
      await writeFile(
        file,
        example
          .replace('"workspace-backend/client"', JSON.stringify(join(process.cwd(), "client/index.ts")))
          .replace("http://127.0.0.1:3000", server.url),
      );
      expect(compileErrors(ts.createProgram([file], COMPILER_OPTIONS))).toEqual([]);
      const owner = await server.registered("readme");
      const token = String(
        (await owner.post("/tokens", { name: "readme", scopes: ["pages:read", "pages:write"] })).body.token,
      );
      const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", file], {
        env: { ...process.env, TOKEN: token },
      });
      expect(stdout).toContain("Q4 plan ---\nid: ");
      expect(stdout).toContain("# Goals");
      // The replaced markdown, answered as text/markdown, is the call's data: no exception after the write.
      expect(stdout).toMatch(/200 ---\nid: [\s\S]*# Goals\n\nShip it\./);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("sends a page's markdown given as a string as text/markdown, with no header named", async () => {
    const owner = await server.registered("texter");
    const token = String(
      (await owner.post("/tokens", { name: "text", scopes: ["pages:read", "pages:write"] })).body.token,
    );
    const api = createWorkspaceClient({ baseUrl: server.url, token });
    const sent: string[] = [];
    api.use({ onRequest: ({ request }) => void sent.push(`${request.method} ${request.headers.get("content-type")}`) });
    const page = await api.POST("/api/v1/pages", { body: { title: "Notes", markdown: "# Notes" } });
    const pageId = page.data?.id;
    if (!pageId) throw new Error(`no page: ${JSON.stringify(page.error)}`);

    // Markdown that reads as a JSON object is still markdown.
    const markdown = '{"markdown": "not this"}\n\n# Notes, again';
    const replaced = await api.PUT("/api/v1/pages/{pageId}/content", {
      params: { path: { pageId }, header: { "If-Match": "*" } },
      body: markdown,
      parseAs: "text",
    });
    expect(replaced.response.status).toBe(200);
    expect(replaced.data?.endsWith(markdown)).toBe(true);
    const read = await api.GET("/api/v1/pages/{pageId}/content", { params: { path: { pageId } }, parseAs: "text" });
    expect(read.data?.endsWith(markdown)).toBe(true);
    // A type the call names is kept; an object body is JSON.
    const plain = await api.PUT("/api/v1/pages/{pageId}/content", {
      params: { path: { pageId }, header: { "If-Match": "*" } },
      body: "plain words",
      headers: { "content-type": "text/plain" },
      parseAs: "text",
    });
    expect(plain.response.status).toBe(200);
    const json = await api.PUT("/api/v1/pages/{pageId}/content", {
      params: { path: { pageId }, header: { "If-Match": "*" } },
      body: { markdown: "# As JSON" },
      parseAs: "text",
    });
    expect(json.data?.endsWith("# As JSON")).toBe(true);
    expect(sent).toEqual([
      "POST application/json",
      "PUT text/markdown",
      "GET null",
      "PUT text/plain",
      "PUT application/json",
    ]);
  }, 30_000);

  it("runs the README's walkthrough through openapi-fetch", async () => {
    const session = await mintSession(TEST_SESSION_SECRET, {
      sub: crypto.randomUUID(),
      email: "ann@example.com",
      name: "Ann",
    });
    const browser = createWorkspaceClient({ baseUrl: server.url, headers: { cookie: `${SESSION_COOKIE}=${session}` } });

    const me = await browser.GET("/api/v1/me");
    expect(me.data?.email).toBe("ann@example.com");

    const created = await browser.POST("/api/v1/tokens", {
      body: { name: "my script", scopes: ["pages:read", "pages:write"], expiresAt: null },
    });
    const token = created.data?.token;
    if (!token) throw new Error(`no token: ${JSON.stringify(created.error)}`);
    const api = createWorkspaceClient({ baseUrl: server.url, token });

    const folder = await api.POST("/api/v1/folders", { body: { name: "Projects", parentId: null } });
    const folderId = folder.data?.id;
    if (!folderId) throw new Error(`no folder: ${JSON.stringify(folder.error)}`);

    // The same Idempotency-Key and body: the first answer again, saying it is a replay, and one page only.
    const key = crypto.randomUUID();
    const newPage = { title: "Q4 plan", markdown: "# Goals\n\nShip it.", parentId: folderId };
    const first = await api.POST("/api/v1/pages", { params: { header: { "Idempotency-Key": key } }, body: newPage });
    const again = await api.POST("/api/v1/pages", { params: { header: { "Idempotency-Key": key } }, body: newPage });
    const pageId = first.data?.id;
    if (!pageId) throw new Error(`no page: ${JSON.stringify(first.error)}`);
    expect(again.response.status).toBe(201);
    expect(again.data?.id).toBe(pageId);
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    // The 201's Location, a header the document declares (so the generated types name it), is the new page's
    // path, on the replay too; the page reads there.
    const location: paths["/api/v1/pages"]["post"]["responses"][201]["headers"]["Location"] =
      first.response.headers.get("location") ?? "";
    expect(location).toBe(`/api/v1/pages/${pageId}`);
    expect(again.response.headers.get("location")).toBe(location);
    const located = await fetch(new URL(location ?? "/", server.url), {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await located.json()).toMatchObject({ id: pageId, title: "Q4 plan" });

    const resolved = await api.GET("/api/v1/pages/resolve", { params: { query: { title: "q4 plan" } } });
    expect(resolved.data?.data.map((page) => page.id)).toEqual([pageId]);
    const listed = await api.GET("/api/v1/pages", { params: { query: { limit: 10 } } });
    expect(listed.data?.data.map((page) => page.id)).toEqual([pageId]);

    // The markdown is text/markdown, read as text; its ETag makes the replace conditional.
    const content = await api.GET("/api/v1/pages/{pageId}/content", { params: { path: { pageId } }, parseAs: "text" });
    expect(content.data).toContain("# Goals");
    const etag = content.response.headers.get("etag");
    if (!etag) throw new Error("no ETag");
    const replaced = await api.PUT("/api/v1/pages/{pageId}/content", {
      params: { path: { pageId }, header: { "If-Match": etag } },
      body: { markdown: "# Goals\n\nShip it twice." },
      parseAs: "text",
    });
    expect(replaced.response.status).toBe(200);
    expect(replaced.data).toContain("Ship it twice.");
    const stale = await api.PUT("/api/v1/pages/{pageId}/content", {
      params: { path: { pageId }, header: { "If-Match": etag } },
      body: { markdown: "lost update" },
    });
    expect(stale.response.status).toBe(412);
    expect(stale.error?.error.code).toBe("precondition_failed");

    // The file part is a Blob: the client sends a body with one as multipart/form-data.
    const png = await makeImage("png");
    const uploaded = await api.POST("/api/v1/pages/{pageId}/images", {
      params: { path: { pageId } },
      body: { file: new File([new Uint8Array(png)], "chart.png", { type: "image/png" }), alt: "a chart" },
    });
    const imageId = uploaded.data?.id;
    if (!imageId) throw new Error(`no image: ${JSON.stringify(uploaded.error)}`);
    expect(uploaded.data?.markdown).toContain(imageId);
    expect(uploaded.data?.originalName).toBe("chart.png");
    const image = await api.GET("/api/v1/images/{imageId}", { params: { path: { imageId } }, parseAs: "arrayBuffer" });
    expect(image.response.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(image.data ?? new ArrayBuffer(0)).equals(png)).toBe(true);
    // With no option, the bytes are a Blob of the image's type.
    const blob = await api.GET("/api/v1/images/{imageId}", { params: { path: { imageId } } });
    if (!(blob.data instanceof Blob)) throw new Error(`no Blob: ${typeof blob.data}`);
    expect(blob.data.type).toBe("image/png");
    expect(Buffer.from(await blob.data.arrayBuffer()).equals(png)).toBe(true);
  }, 30_000);
});
