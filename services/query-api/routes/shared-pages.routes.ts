// The public page of a share link, outside /api/v1 and without authentication: GET /s/{secret} (the page, or a
// folder's index), GET /s/{secret}/pages/{pageId} (a page of a folder link), GET /s/{secret}/images/{imageId}
// (an image of a page the link shows), GET /s/{secret}/attachments/{attachmentId} (an attached file of such a
// page, served as serve-attachment.ts serves it) and POST /s/{secret} (the password form). Every answer that shows nothing
// is the same 404 page, byte for byte, whatever the reason; every answer carries the strict headers of
// public-page-html.ts. The markdown is rendered in the worker pool (SharedPageRenderer).
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { blobKeySchema } from "../../../shared/blobs/blob-store.port.ts";
import { AppError } from "../../../shared/errors/app-error.ts";
import type { App } from "../../../shared/http/create-app.ts";
import { errorBody } from "../../../shared/http/schemas.ts";
import {
  isUnlocked,
  openShareLink,
  pageOfLink,
  pagesOfLink,
  placeInLink,
  UNLOCK_COOKIE,
  type OpenedLink,
} from "../../../shared/share-links/open-share-link.ts";
import {
  NOT_FOUND_HTML,
  pageDocument,
  passwordDocument,
  publicHeaders,
  RANGE_NOT_SATISFIABLE_HTML,
  RATE_LIMITED_HTML,
  TOO_MANY_HTML,
} from "../../../shared/share-links/public-page-html.ts";
import { passwordMatches, UNLOCK_SECONDS, unlockToken } from "../../../shared/share-links/share-link-password.ts";
import { runAsCaller, userCaller } from "../../../shared/workers/pool-caller.ts";
import { serveAttachment } from "../attachments/serve-attachment.ts";
import type { PublicPagePorts, QueryApiPorts } from "../query-api-ports.ts";

export interface SharedPagePorts extends Pick<QueryApiPorts, "views" | "blobs" | "clock">, PublicPagePorts {}

/**
 * Password attempts allowed per window: per client address on one link, and per client address over all links.
 * Never per link alone: strangers' wrong guesses must not lock out a reader who knows the password.
 */
const PASSWORD_ATTEMPTS = { perLinkAndAddress: 20, perAddress: 50, windowSeconds: 15 * 60 } as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const html = z.string().describe("an HTML document");
const secretParams = z.object({ secret: z.string() });
const pageParams = secretParams.extend({ pageId: z.string() });
const imageParams = secretParams.extend({ imageId: z.string() });
const attachmentParams = secretParams.extend({ attachmentId: z.string() });
const passwordForm = z.object({
  password: z.string().max(200).meta({ description: "the link's password (a longer one is refused as a wrong one)" }),
});
/** The refusals made before the form is read, as every API answers them (not pages: no form was shown yet). */
const refused = (code: string, why: string) =>
  errorBody.describe(`\`{error: {code, message}}\` with code \`${code}\`: ${why}`);

const wantsMarkdown = (request: FastifyRequest): boolean => /\btext\/markdown\b/.test(request.headers.accept ?? "");

/** The public 404 page (HTML), the same whatever was not found: an API answer says not_found with an AppError. */
function sendNotFoundPage(reply: FastifyReply) {
  return reply.code(404).headers(publicHeaders(false)).type("text/html; charset=utf-8").send(NOT_FOUND_HTML);
}

export function sharedPageRoutes(app: App, ports: SharedPagePorts): void {
  const base = (opened: OpenedLink) => `/s/${opened.secret}`;
  const nowSeconds = () => Math.floor(ports.clock().getTime() / 1000);

  /** The link, when it shows anything and the request has given its password; otherwise the answer is sent. */
  async function open(request: FastifyRequest, secret: string, reply: FastifyReply): Promise<OpenedLink | null> {
    const opened = await openShareLink(ports.views, secret, ports.clock());
    if (!opened) {
      await sendNotFoundPage(reply);
      return null;
    }
    if (!isUnlocked(opened, request.headers.cookie, nowSeconds())) {
      await reply
        .code(401)
        .headers(publicHeaders(false))
        .type("text/html; charset=utf-8")
        .send(passwordDocument(base(opened), false));
      return null;
    }
    return opened;
  }

  async function show(reply: FastifyReply, request: FastifyRequest, opened: OpenedLink, pageId: string | null) {
    const headers = publicHeaders(opened.link.allowIndexing);
    const pages = await pagesOfLink(ports.views, opened);
    const page =
      pageId === null ? (opened.kind === "page" ? opened.page : null) : await pageOfLink(ports.views, opened, pageId);
    if (pageId !== null && !page) return sendNotFoundPage(reply);
    // A HEAD (a link preview, a checker) reads no page: not a view.
    if (request.method === "GET") ports.viewCounter.count(opened.link.id, opened.secret);
    const pageHref = (id: string) => (opened.kind === "page" ? base(opened) : `${base(opened)}/pages/${id}`);
    const titled = (p: (typeof pages)[number]) => [placeInLink(opened, p), p.title].filter(Boolean).join("/");
    const content = page ? await ports.views.pages.getContent(page.id) : null;
    if (page && !content) return sendNotFoundPage(reply);
    const options = {
      linkBase: base(opened),
      rootPageId: opened.kind === "page" ? opened.page.id : null,
      pages: Object.fromEntries(pages.map((p) => [p.id, { title: p.title }])),
      title: page ? page.title : null,
    };
    if (wantsMarkdown(request)) {
      // The same rule as the HTML's: nothing outside the link, images and files through it.
      const markdown = content
        ? await runAsCaller(userCaller(opened.link.createdBy), () => ports.renderer.markdown(content.markdown, options))
        : `# ${opened.kind === "folder" ? opened.folder.name : ""}\n\n${pages.map((p) => `- [${titled(p)}](${pageHref(p.id)})`).join("\n")}\n`;
      return reply.code(200).headers(headers).type("text/markdown; charset=utf-8").send(markdown);
    }
    // An anonymous reader's render takes the worker pool's turns as the link owner's.
    const body = content
      ? await runAsCaller(userCaller(opened.link.createdBy), () => ports.renderer.render(content.markdown, options))
      : "";
    const nav =
      opened.kind === "folder"
        ? {
            folder: opened.folder.name,
            rootHref: base(opened),
            items: pages.map((p) => ({ href: pageHref(p.id), title: titled(p), current: p.id === page?.id })),
          }
        : null;
    const title = page ? page.title : opened.kind === "folder" ? opened.folder.name : "";
    return reply
      .code(200)
      .headers(headers)
      .type("text/html; charset=utf-8")
      .send(pageDocument({ title, html: body, nav }));
  }

  const documented = { 200: html, 401: html, 404: html, 429: html };

  app.get("/s/:secret", { schema: { params: secretParams, response: documented } }, async (request, reply) => {
    const opened = await open(request, request.params.secret, reply);
    return opened ? show(reply, request, opened, null) : reply;
  });

  app.get(
    "/s/:secret/pages/:pageId",
    { schema: { params: pageParams, response: documented } },
    async (request, reply) => {
      if (!UUID.test(request.params.pageId)) return sendNotFoundPage(reply);
      const opened = await open(request, request.params.secret, reply);
      return opened ? show(reply, request, opened, request.params.pageId) : reply;
    },
  );

  app.get(
    "/s/:secret/images/:imageId",
    {
      schema: {
        params: imageParams,
        response: { 200: z.unknown().describe("the image's bytes"), 401: html, 404: html, 429: html },
      },
    },
    async (request, reply) => {
      if (!UUID.test(request.params.imageId)) return sendNotFoundPage(reply);
      const opened = await open(request, request.params.secret, reply);
      if (!opened) return reply;
      const image = await ports.views.images.get(request.params.imageId.toLowerCase());
      if (!image || !(await pageOfLink(ports.views, opened, image.pageId))) return sendNotFoundPage(reply);
      const blob = await ports.blobs.open(blobKeySchema.parse(image.filename));
      if (!blob) return sendNotFoundPage(reply);
      return reply
        .code(200)
        .headers({
          ...publicHeaders(opened.link.allowIndexing),
          "content-security-policy": "default-src 'none'; sandbox",
        })
        .type(image.mimeType)
        .header("content-length", String(blob.size))
        .send(blob.stream);
    },
  );

  app.get(
    "/s/:secret/attachments/:attachmentId",
    {
      schema: {
        params: attachmentParams,
        response: {
          200: z.unknown().describe("the file's bytes"),
          206: z.unknown().describe("the bytes of the one range asked for"),
          304: z.null(),
          401: html,
          404: html,
          416: html,
          429: html,
        },
      },
    },
    async (request, reply) => {
      if (!UUID.test(request.params.attachmentId)) return sendNotFoundPage(reply);
      const opened = await open(request, request.params.secret, reply);
      if (!opened) return reply;
      const attachment = await ports.views.attachments.get(request.params.attachmentId.toLowerCase());
      if (!attachment || attachment.deletedAt !== null || !(await pageOfLink(ports.views, opened, attachment.pageId)))
        return sendNotFoundPage(reply);
      // The public headers first; serveAttachment then sets the file's own CSP, and no-store keeps the bytes only
      // as long as the link lives.
      reply.headers(publicHeaders(opened.link.allowIndexing));
      try {
        return await serveAttachment(request, reply, ports.blobs, attachment, "no-store");
      } catch (error) {
        if (!(error instanceof AppError && error.code === "range_not_satisfiable")) throw error;
        return reply
          .code(416)
          .header("content-range", `bytes */${attachment.size}`)
          .type("text/html; charset=utf-8")
          .send(RANGE_NOT_SATISFIABLE_HTML);
      }
    },
  );

  // Anything else under /s/ (a trailing slash, another method, a path no route has) is the one 404 page, with
  // the headers of every public answer, not the API's JSON 404 or 405.
  app.register(
    async (scope: App) => {
      scope.setNotFoundHandler(async (_request, reply) => sendNotFoundPage(reply));
    },
    { prefix: "/s" },
  );

  // Browsers ask every site for its icon: an empty answer they keep for a day, not a 404 per page view.
  app.get("/favicon.ico", { schema: { response: { 204: z.null().describe("no icon") } } }, async (_request, reply) =>
    reply.code(204).header("cache-control", "public, max-age=86400").send(null),
  );

  // The password form: application/x-www-form-urlencoded, parsed in this scope only (no other route takes it), or JSON.
  app.register(async (form: App) => {
    form.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 4096 },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(typeof body === "string" ? body : body.toString("utf8"))));
      },
    );
    const response = {
      303: z.undefined().describe("See Other: the link's page, unlocked for this browser (no body)"),
      400: refused("validation_failed", "a JSON body that does not parse"),
      401: html.describe("the password form again, saying the password was wrong (or missing)"),
      404: html.describe("no such link (unknown, expired or revoked): the same page whatever the reason"),
      413: refused("payload_too_large", "a form over 4 KiB, or a JSON body over the server's body limit"),
      415: refused("unsupported_media_type", "a body neither a form nor JSON"),
      429: html.describe(
        "too many password attempts for this link or from this address, or past the rate limit of all requests: a page saying so (Retry-After)",
      ),
    };
    const schema = {
      params: secretParams,
      consumes: ["application/x-www-form-urlencoded", "application/json"],
      response,
    };
    // The form's fields are read and checked by the handler (a wrong one shows the form again); `form` documents them.
    form.post("/s/:secret", { config: { form: passwordForm }, schema }, async (request, reply) => {
      const opened = await openShareLink(ports.views, request.params.secret, ports.clock());
      if (!opened) return sendNotFoundPage(reply);
      const hash = opened.link.passwordHash;
      // A redirect has no body: a 303 says where to go, and nothing else.
      if (hash === null) return reply.headers(publicHeaders(false)).redirect(base(opened), 303);
      const retryAfter = await overGuessLimit(ports, opened.link.id, request.ip);
      if (retryAfter !== null) {
        return reply
          .code(429)
          .headers(publicHeaders(false))
          .header("retry-after", String(retryAfter))
          .type("text/html; charset=utf-8")
          .send(TOO_MANY_HTML);
      }
      const given = passwordForm.safeParse(request.body);
      if (!given.success || !(await passwordMatches(given.data.password, hash))) {
        return reply
          .code(401)
          .headers(publicHeaders(false))
          .type("text/html; charset=utf-8")
          .send(passwordDocument(base(opened), true));
      }
      const expires = nowSeconds() + UNLOCK_SECONDS;
      const cookie = `${UNLOCK_COOKIE}=${encodeURIComponent(unlockToken(hash, opened.link.id, expires))}; Path=${base(opened)}; Max-Age=${UNLOCK_SECONDS}; HttpOnly; SameSite=Strict${request.protocol === "https" ? "; Secure" : ""}`;
      return reply.headers(publicHeaders(false)).header("set-cookie", cookie).redirect(base(opened), 303);
    });
  });
}

/** Counts the attempt against the address on this link and the address; the seconds to wait when either is over its bound. */
async function overGuessLimit(ports: SharedPagePorts, linkId: string, address: string): Promise<number | null> {
  const { perLinkAndAddress, perAddress, windowSeconds } = PASSWORD_ATTEMPTS;
  const now = ports.clock().getTime() / 1000;
  const window = Math.floor(now / windowSeconds);
  const retryAfter = Math.max(1, Math.ceil((window + 1) * windowSeconds - now));
  try {
    const [forLink, forAddress] = await Promise.all([
      ports.guessCounters.increment(`share-password:link-address:${linkId}:${address}:${window}`, windowSeconds),
      ports.guessCounters.increment(`share-password:address:${address}:${window}`, windowSeconds),
    ]);
    return forLink > perLinkAndAddress || forAddress > perAddress ? retryAfter : null;
  } catch {
    // As for the rate limits: an unreachable counter store does not lock every viewer out.
    return null;
  }
}

/**
 * The error handler of the public pages: a budget spent is a page a browser shows, with the headers of every public
 * answer (the rate limit refuses before any route runs, in the API's JSON shape elsewhere); any other error is the
 * API's.
 */
export function publicPageErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (!(error instanceof AppError && (error.code === "rate_limited" || error.code === "too_many_tasks"))) throw error;
  return reply
    .code(429)
    .headers({ ...error.headers, ...publicHeaders(false) })
    .type("text/html; charset=utf-8")
    .send(RATE_LIMITED_HTML);
}
