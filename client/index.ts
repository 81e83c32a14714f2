// The typed client of the Workspace API: openapi-fetch over the types openapi-typescript generates from the
// API reference (client/api.generated.ts, checked against the served document by test/http/api/typed-client.test.ts).
//
//   import { createWorkspaceClient } from "workspace-backend/client";
//   const api = createWorkspaceClient({ baseUrl: "http://127.0.0.1:3000", token: process.env.API_TOKEN });
//   const { data, error } = await api.POST("/api/v1/pages", { body: { title: "Q4 plan", markdown: "# Goals" } });
//   if (error) throw new Error(error.error.message);
//   console.log(data.id, data.title);
//
// Every answer is read by its media type with no option: JSON parsed, text (markdown, HTML) as a string, bytes
// (images, files, zips) as a Blob; `parseAs` still reads an answer another way (a stream, an ArrayBuffer).
import createClient, { type Client, type ClientOptions, type Middleware } from "openapi-fetch";
import type { components, paths } from "./api.generated.ts";

export type { components, operations, paths } from "./api.generated.ts";
/** The API's named records: `Schemas["Page"]`, `Schemas["Folder"]`, `Schemas["CommentThread"]`, ... */
export type Schemas = components["schemas"];
export type WorkspaceClient = Client<paths>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

const FORM = "application/x-www-form-urlencoded";
const MARKDOWN = "text/markdown";

/** A string body (a page's markdown): its text, marked so that the request goes out as text/markdown. */
class TextBody extends Blob {}

/**
 * How a request body goes out: an object with a Blob part (an image upload) as multipart/form-data, a string (a
 * page's markdown) as it is, with `content-type: text/markdown` unless the call names another type, an object
 * sent with `content-type: application/x-www-form-urlencoded` (a share link's password form) as that form,
 * anything else as JSON. `headers` are the request's, which openapi-fetch passes along.
 */
/** A form field's text: a string as it is, a number or boolean as written in JSON. */
const formText = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

export function serializeBody(body: unknown, headers?: Headers): Blob | string | FormData {
  if (typeof body === "string") return new TextBody([body], { type: MARKDOWN });
  if (isRecord(body) && Object.values(body).some((value) => value instanceof Blob)) {
    const form = new FormData();
    for (const [name, value] of Object.entries(body)) {
      if (value instanceof Blob) form.append(name, value, value instanceof File ? value.name : name);
      else if (value !== undefined) form.append(name, formText(value));
    }
    return form;
  }
  if (isRecord(body) && headers?.get("content-type")?.split(";")[0]?.trim() === FORM) {
    return new URLSearchParams(
      Object.entries(body).flatMap(([name, value]) => (value === undefined ? [] : [[name, formText(value)]])),
    ).toString();
  }
  return JSON.stringify(body);
}

export interface WorkspaceClientOptions extends Omit<ClientOptions, "bodySerializer" | "Request"> {
  /** The server (or gateway) address, without /api/v1. */
  readonly baseUrl: string;
  /** An API token: sent as `Authorization: Bearer <token>`. */
  readonly token?: string;
}

/**
 * openapi-fetch labels every body but FormData `application/json` unless the call names a type: a string body
 * is markdown, so it goes out as `text/markdown` instead (a type the call names, `text/plain`, is kept).
 */
class WorkspaceRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    if (!(init?.body instanceof TextBody)) {
      super(input, init);
      return;
    }
    const headers = new Headers(init.headers);
    if (headers.get("content-type") === "application/json") headers.set("content-type", init.body.type);
    super(input, { ...init, headers });
  }
}

/** A success answer's body, read as its media type says: text (a page's markdown, HTML) as a string, bytes as a Blob. */
class MediaTypedAnswer extends Response {
  constructor(
    private readonly content: ArrayBuffer,
    private readonly media: string,
    init: ResponseInit,
  ) {
    super(content, init);
  }

  /** What openapi-fetch's default reading (`parseAs: "json"`) calls: the body as its own media type reads. */
  override json(): Promise<string | Blob> {
    return Promise.resolve(
      this.media.startsWith("text/")
        ? new TextDecoder().decode(this.content)
        : new Blob([this.content], { type: this.media }),
    );
  }
}

const isJson = (media: string): boolean => media === "application/json" || media.endsWith("+json");

/**
 * openapi-fetch reads every answer as JSON unless the call says `parseAs`: an answer of another media type (a
 * page's markdown after its replacement) would throw after the server applied the write. So a success answer
 * that is not JSON is read by its media type instead; a call naming `parseAs` reads as it asks, and a stream
 * (text/event-stream) is left to `parseAs: "stream"`.
 */
const readByMediaType: Middleware = {
  async onResponse({ response, options }) {
    if (options.parseAs !== "json" || !response.ok || response.status === 204 || response.body === null)
      return undefined;
    const media = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
    if (media === undefined || media === "" || isJson(media) || media === "text/event-stream") return undefined;
    const bytes = await response.arrayBuffer();
    // The length of what is read now (fetch has already decoded any content-encoding), so the body is read whole.
    const headers = new Headers(response.headers);
    headers.set("content-length", String(bytes.byteLength));
    return new MediaTypedAnswer(bytes, media, { status: response.status, statusText: response.statusText, headers });
  },
};

export function createWorkspaceClient({ token, headers, ...options }: WorkspaceClientOptions): WorkspaceClient {
  const authorization = token === undefined ? {} : { authorization: `Bearer ${token}` };
  const client = createClient<paths>({
    ...options,
    headers: { ...authorization, ...headers },
    bodySerializer: serializeBody,
    Request: WorkspaceRequest,
  });
  client.use(readByMediaType);
  return client;
}
