// Bodies refused before anything is done with them: every operation that takes a body answers 413 to one over its
// limit and 415 to a media type it does not read. The limits are the server's settings (BODY_LIMIT_BYTES,
// ATTACHMENT_MAX_BYTES, IMPORT_ZIP_MAX_BYTES), the page routes' own (the page in its worst encoding) and the
// image's 10 MB.
import { IMAGE_MAX_BYTES } from "../../../services/command-api/routes/images.routes.ts";
import { PAGE_BODY_LIMIT_BYTES } from "../../../services/command-api/routes/fields.ts";
import { attachmentForm } from "../attachments.ts";
import { createPage } from "./builders.ts";
import { documentedOperations, documents, filled, type DocumentedOperation } from "./documented.ts";
import { expectAnswer, type Agent, type Prober, type Sent } from "./probe.ts";
import type { ResponseConformance } from "../openapi-conformance.ts";

export interface BodyLimits {
  readonly BODY_LIMIT_BYTES: number;
  readonly ATTACHMENT_MAX_BYTES: number;
  readonly IMPORT_ZIP_MAX_BYTES: number;
}

/** A JSON body one byte-run over `limit`. */
const padded = (limit: number): Sent => ({ json: { padding: "x".repeat(limit + 1) } });

/** What is too large for each operation whose limit is not BODY_LIMIT_BYTES. */
function oversized(limits: BodyLimits): Record<string, Sent> {
  const page = padded(PAGE_BODY_LIMIT_BYTES);
  return {
    createPage: page,
    replacePageContent: page,
    appendPageContent: page,
    uploadAttachment: {
      body: attachmentForm({ bytes: new Uint8Array(limits.ATTACHMENT_MAX_BYTES + 1), name: "large.bin" }),
    },
    importObsidianVault: {
      body: new Uint8Array(limits.IMPORT_ZIP_MAX_BYTES + 1),
      headers: { "content-type": "application/zip" },
    },
  };
}

async function tooLarge(
  prober: Prober,
  owner: Agent,
  operation: DocumentedOperation,
  path: string,
  limits: BodyLimits,
): Promise<void> {
  const what = `${operation.operationId} with a body over its limit`;
  if (operation.operationId === "uploadImage") {
    // Refused from the declared length, before any of the 10 MB is sent.
    const declared = IMAGE_MAX_BYTES + 1024 * 1024;
    expectAnswer(
      await prober.declaring(operation.method, path, declared, {
        ...owner.headers,
        "content-type": "multipart/form-data; boundary=x",
      }),
      413,
      what,
    );
    return;
  }
  expectAnswer(
    await owner.send(
      operation.method,
      path,
      oversized(limits)[operation.operationId] ?? padded(limits.BODY_LIMIT_BYTES),
    ),
    413,
    what,
  );
}

export async function refusedBodies({
  prober,
  conformance,
  limits,
}: {
  prober: Prober;
  conformance: ResponseConformance;
  limits: BodyLimits;
}): Promise<void> {
  const owner = await prober.signIn("owner");
  // The uploads look at the page before they read the body: the page must be there.
  const { id: pageId } = await createPage(owner);
  const operations = documentedOperations(conformance).filter((operation) => operation.consumes.length > 0);
  for (const operation of operations) {
    const path = filled(operation, { pageId });
    if (documents(operation, "413")) await tooLarge(prober, owner, operation, path, limits);
    if (documents(operation, "415")) {
      const refused = await owner.send(operation.method, path, {
        body: "<page>words</page>",
        headers: { "content-type": "application/xml" },
      });
      expectAnswer(refused, 415, `${operation.operationId} with an XML body`);
    }
  }
}
