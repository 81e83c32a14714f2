// The conditional and ranged requests: a page written only under If-Match (428 without it, 412 with a stale
// one), image and attachment bytes read again with If-None-Match (304), and one range of an attachment's bytes
// (206, or 416 past its end), through the API and through a share link.
import { expectAnswer, header, type Prober } from "./probe.ts";
import { makeImage } from "../images.ts";
import { attach, contentOf, createPage, shareLink, uploadImage } from "./builders.ts";

export async function conditionalRequests(prober: Prober): Promise<void> {
  const owner = await prober.signIn("conditions");
  const { id: pageId, created } = await createPage(owner);
  const stale = (await contentOf(owner, pageId)).etag;
  expectAnswer(await owner.patch(`/api/v1/pages/${pageId}/content`, { append: "\nmore words" }), 200, "an append");

  expectAnswer(
    await owner.put(`/api/v1/pages/${pageId}/content`, { markdown: "no condition" }),
    428,
    "replacePageContent without If-Match",
  );
  expectAnswer(
    await owner.post(`/api/v1/pages/${pageId}/restore`, { at: created }),
    428,
    "restorePage without If-Match",
  );
  expectAnswer(
    await owner.post(`/api/v1/pages/${pageId}/restore`, { at: created }, { "if-match": stale }),
    412,
    "restorePage with a stale ETag",
  );
  expectAnswer(
    await owner.patch(`/api/v1/pages/${pageId}/content`, { append: "\nlost" }, { "if-match": stale }),
    412,
    "appendPageContent with a stale ETag",
  );

  const imageId = await uploadImage(owner, pageId, await makeImage("png"));
  const image = expectAnswer(await owner.get(`/api/v1/images/${imageId}`), 200, "getImage");
  expectAnswer(
    await owner.get(`/api/v1/images/${imageId}`, { "if-none-match": header(image, "etag") }),
    304,
    "getImage with its ETag",
  );

  const bytes = new TextEncoder().encode("0123456789 the bytes of an attached file");
  const attachmentId = await attach(owner, pageId, bytes);
  const link = await shareLink(owner, "page", pageId);
  for (const path of [`/api/v1/attachments/${attachmentId}`, `/s/${link.secret}/attachments/${attachmentId}`]) {
    const agent = path.startsWith("/s/") ? prober.as({}) : owner;
    const whole = expectAnswer(await agent.get(path), 200, `${path} whole`);
    expectAnswer(await agent.get(path, { "if-none-match": header(whole, "etag") }), 304, `${path} with its ETag`);
    const part = expectAnswer(await agent.get(path, { range: "bytes=0-9" }), 206, `${path} first ten bytes`);
    if (part.text !== "0123456789") throw new Error(`${path}: the range answered ${part.text}`);
    expectAnswer(await agent.get(path, { range: `bytes=${bytes.length}-` }), 416, `${path} past its end`);
  }
}
