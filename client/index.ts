// The typed client of the Workspace API: openapi-fetch over the types openapi-typescript generates from the
// API reference (client/api.generated.ts, checked against the served document by test/http/typed-client.test.ts).
//
//   import { createWorkspaceClient } from "workspace-backend/client";
//   const api = createWorkspaceClient({ baseUrl: "http://127.0.0.1:3000", token: process.env.API_TOKEN });
//   const { data, error } = await api.POST("/api/v1/pages", { body: { title: "Q4 plan", markdown: "# Goals" } });
//   if (error) throw new Error(error.error.message);
//   console.log(data.id, data.title);
import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { components, paths } from "./api.generated.ts";

export type { components, operations, paths } from "./api.generated.ts";
/** The API's named records: `Schemas["Page"]`, `Schemas["Folder"]`, `Schemas["CommentThread"]`, ... */
export type Schemas = components["schemas"];
export type WorkspaceClient = Client<paths>;

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

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
    return new URLSearchParams(Object.entries(body).flatMap(([name, value]) => (value === undefined ? [] : [[name, formText(value)]]))).toString();
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

export function createWorkspaceClient({ token, headers, ...options }: WorkspaceClientOptions): WorkspaceClient {
  const authorization = token === undefined ? {} : { authorization: `Bearer ${token}` };
  return createClient<paths>({ ...options, headers: { ...authorization, ...headers }, bodySerializer: serializeBody, Request: WorkspaceRequest });
}
