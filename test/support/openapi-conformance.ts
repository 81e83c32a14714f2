// Checks real answers against the API reference with openapi-backend's response validator (its router finds the
// operation, its Ajv validators check the JSON body and the headers), plus what it leaves out: that the status is
// one the operation documents, the content type one that status documents, and the headers it marks required
// present. Each answer is recorded by operationId and status, so a test can tell which operations were never called.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { OpenAPIBackend, SetMatchType, type Document, type Operation } from "openapi-backend";
import type { Middleware } from "openapi-fetch";

export interface Answered {
  readonly operationId: string;
  readonly status: number;
  /** The key of the documented response the answer was checked against (`409`, `5XX`), or null when none is. */
  readonly documentedAs: string | null;
}

interface ResponseObject {
  readonly headers?: Record<string, { readonly required?: boolean }>;
  readonly content?: Record<string, unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** The documented response for a status and its key: its own, its range (`5XX`), or `default`. */
function documentedResponse(operation: Operation, status: number): { key: string; response: ResponseObject } | null {
  const responses: Record<string, unknown> = isRecord(operation.responses) ? operation.responses : {};
  const key = [String(status), `${String(status)[0]}XX`, "default"].find((candidate) => isRecord(responses[candidate]));
  const found = key === undefined ? undefined : responses[key];
  return key !== undefined && isRecord(found) ? { key, response: found } : null;
}

export class ResponseConformance {
  readonly answered: Answered[] = [];
  readonly problems: string[] = [];

  private constructor(private readonly backend: OpenAPIBackend) {}

  static async of(document: Document): Promise<ResponseConformance> {
    const backend = new OpenAPIBackend({
      definition: document,
      quick: true,
      // The document's schemas are JSON Schema 2020-12 (OpenAPI 3.1): validated with Ajv's 2020 dialect.
      customizeAjv: (_default, options) =>
        addFormats.default(new Ajv2020({ ...options, strict: false, logger: false })),
    });
    await backend.init();
    return new ResponseConformance(backend);
  }

  /** Every operation of the document. */
  operations(): Operation[] {
    return this.backend.router.getOperations();
  }

  async check(method: string, url: string, response: Response): Promise<void> {
    const path = new URL(url).pathname;
    const where = `${method} ${path} → ${response.status}`;
    const operation = this.backend.router.matchOperation({ method, path, headers: {}, query: {} });
    if (!operation) {
      this.problems.push(`${where}: no operation of the document`);
      return;
    }
    const found = documentedResponse(operation, response.status);
    this.answered.push({
      operationId: operation.operationId ?? "",
      status: response.status,
      documentedAs: found?.key ?? null,
    });
    if (!found) {
      this.problems.push(`${where} (${operation.operationId}): status not documented`);
      return;
    }
    const documented = found.response;
    const headers = Object.fromEntries([...response.headers].map(([name, value]) => [name.toLowerCase(), value]));
    for (const [name, header] of Object.entries(documented.headers ?? {})) {
      if (header.required && headers[name.toLowerCase()] === undefined)
        this.problems.push(`${where}: header ${name} missing`);
    }
    const headerCheck = this.backend.validator.validateResponseHeaders(headers, operation, {
      statusCode: response.status,
      setMatchType: SetMatchType.Any,
    });
    for (const error of headerCheck.errors ?? [])
      this.problems.push(`${where}: header ${error.instancePath} ${error.message ?? ""}`);

    const mediaType = (response.headers.get("content-type") ?? "").split(";")[0]?.trim() ?? "";
    const content = documented.content ?? {};
    if (mediaType === "text/event-stream") {
      // A stream stays open: its media type is checked, its body is not read (it is the caller's to read or cancel).
      if (!(mediaType in content))
        this.problems.push(
          `${where}: answered ${mediaType}, the document says ${Object.keys(content).join(" or ") || "no body"}`,
        );
      return;
    }
    const text = await response.text();
    if (response.status === 204 || response.status === 304 || (text === "" && Object.keys(content).length === 0)) {
      if (text !== "") this.problems.push(`${where}: a body where the document says none`);
      return;
    }
    if (!documentsMedia(content, mediaType)) {
      this.problems.push(
        `${where}: answered ${mediaType || "a body"}, the document says ${Object.keys(content).join(" or ") || "no body"}`,
      );
      return;
    }
    if (mediaType !== "application/json") return;
    const bodyCheck = this.backend.validator.validateResponse(JSON.parse(text), operation, response.status);
    for (const error of bodyCheck.errors ?? [])
      this.problems.push(`${where}: body${error.instancePath} ${error.message ?? ""} ${JSON.stringify(error.params)}`);
  }

  /** An openapi-fetch middleware that checks every answer its client receives. */
  middleware(): Middleware {
    return {
      onResponse: async ({ request, response }) => {
        // A stream is checked without a copy: a copy of it could not be let go before the caller ends the original.
        const streaming = response.headers.get("content-type")?.startsWith("text/event-stream") === true;
        await this.check(request.method, request.url, streaming ? response : response.clone());
        return undefined;
      },
    };
  }
}

// Whether the documented media types take `mediaType`: by name, or by a media type range (any type, or `image/` any) as OpenAPI allows.
function documentsMedia(content: Record<string, unknown>, mediaType: string): boolean {
  const [type] = mediaType.split("/");
  return mediaType in content || "*/*" in content || `${type ?? ""}/*` in content;
}
