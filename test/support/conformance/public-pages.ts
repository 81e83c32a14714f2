// The public pages of share links, as a browser without an account meets them: a password-protected link asks
// for its password (401) on each of its pages, images and files; the password form refuses a wrong password
// (401), lets the right one in (303 to the page) and knows no link it does not show (404), as the page does; a
// body it cannot read is refused as every API refuses it (400).
import { createFolder, createPage, shareLink } from "./builders.ts";
import { expectAnswer, type Prober } from "./probe.ts";

const PASSWORD = "correct horse battery staple";

const form = (password: string) => ({
  body: new URLSearchParams({ password }).toString(),
  headers: { "content-type": "application/x-www-form-urlencoded" },
});

export async function publicPages(prober: Prober): Promise<void> {
  const owner = await prober.signIn("publisher");
  const folderId = await createFolder(owner);
  const { id: pageId } = await createPage(owner, { parentId: folderId });
  const page = await shareLink(owner, "page", pageId, { password: PASSWORD });
  const folder = await shareLink(owner, "folder", folderId, { password: PASSWORD });
  const anyone = prober.as({});
  const unknown = crypto.randomUUID();

  expectAnswer(await anyone.get(`/s/${page.secret}`), 401, "viewSharedPage of a protected link");
  expectAnswer(
    await anyone.get(`/s/${folder.secret}/pages/${pageId}`),
    401,
    "viewSharedFolderPage of a protected link",
  );
  expectAnswer(await anyone.get(`/s/${page.secret}/images/${unknown}`), 401, "getSharedImage of a protected link");
  expectAnswer(
    await anyone.get(`/s/${page.secret}/attachments/${unknown}`),
    401,
    "getSharedAttachment of a protected link",
  );

  expectAnswer(
    await anyone.send("POST", `/s/${page.secret}`, form("a guess")),
    401,
    "unlockSharedPage with a wrong password",
  );
  expectAnswer(
    await anyone.send("POST", `/s/${page.secret}`, form(PASSWORD)),
    303,
    "unlockSharedPage with the password",
  );
  expectAnswer(await anyone.send("POST", "/s/not-a-link", form(PASSWORD)), 404, "unlockSharedPage of no link");
  expectAnswer(
    await anyone.send("POST", `/s/${page.secret}`, { body: "{", headers: { "content-type": "application/json" } }),
    400,
    "unlockSharedPage with JSON that does not parse",
  );
  expectAnswer(await anyone.get("/s/not-a-link"), 404, "viewSharedPage of no link");
}
