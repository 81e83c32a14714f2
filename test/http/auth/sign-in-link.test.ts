// One-time sign-in links (`npm run session -- --link`): a link signs a browser in once, with the session cookie
// the API reads; its second use is refused (the use is an event in the log, which every process reads), as is an
// expired link or one signed with another secret.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userIdForEmail } from "../../../shared/auth/derived-user-id.ts";
import { SIGN_IN_LINK_SECONDS, SignInLinks } from "../../../shared/auth/sign-in/sign-in-link.ts";
import { runToExit } from "../../support/processes.ts";
import { TEST_SESSION_SECRET, TestServer } from "../../support/server.ts";

let server: TestServer;
const links = new SignInLinks(TEST_SESSION_SECRET);

beforeAll(async () => {
  server = await TestServer.start();
}, 30_000);
afterAll(async () => {
  await server.stop();
});

function personFor(label: string) {
  const email = `${label}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  return { sub: userIdForEmail(email), email, name: label };
}

/** Opens the link as a browser would, without following its redirect: the answer, and the session cookie it set. */
async function open(
  link: string,
): Promise<{ status: number; location: string | null; session: string | null; error: string | null }> {
  const answered = await fetch(link, { redirect: "manual" });
  const cookie = (answered.headers.get("set-cookie") ?? "").match(/^app-auth\.session_token=([^;]+)/);
  const error =
    answered.status >= 400 ? ((await answered.json()) as { error: { message: string } }).error.message : null;
  return { status: answered.status, location: answered.headers.get("location"), session: cookie?.[1] ?? null, error };
}

describe("a one-time sign-in link", () => {
  it("signs a browser in once: the session works on GET /api/v1/me, and a second use is refused", async () => {
    const person = personFor("linked");
    const link = `${server.url}/auth/link?token=${await links.mint(person, new Date())}&returnTo=${encodeURIComponent("/api/v1/me")}`;
    const first = await open(link);
    expect(first).toMatchObject({ status: 303, location: "/api/v1/me" });
    const me = await fetch(`${server.url}/api/v1/me`, {
      headers: { cookie: `app-auth.session_token=${first.session}` },
    });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ id: person.sub, email: person.email });

    const second = await open(link);
    expect(second).toMatchObject({
      status: 401,
      session: null,
      error: "this sign-in link was used already; print a new one",
    });
  });

  it("is used once even when two uses race", async () => {
    const link = `${server.url}/auth/link?token=${await links.mint(personFor("raced"), new Date())}`;
    const answers = await Promise.all([open(link), open(link), open(link)]);
    expect(answers.map(({ status }) => status).sort()).toEqual([303, 401, 401]);
  });

  it("is refused once expired, or when another secret signed it", async () => {
    const expired = await links.mint(personFor("late"), new Date(Date.now() - (SIGN_IN_LINK_SECONDS + 60) * 1000));
    expect(await open(`${server.url}/auth/link?token=${expired}`)).toMatchObject({
      status: 401,
      session: null,
      error: "this sign-in link is not valid or has expired; print a new one",
    });
    const forged = await new SignInLinks("another-secret-that-is-long-enough-for-signing").mint(
      personFor("forger"),
      new Date(),
    );
    expect(await open(`${server.url}/auth/link?token=${forged}`)).toMatchObject({ status: 401, session: null });
  });

  it("is printed by npm run session -- --link, for the server's own address", async () => {
    const email = `printed-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const printed = await runToExit(
      "shared/auth/mint-session.cli.ts",
      {
        DATA_DIR: server.dataDir,
        AUTH_SESSION_SECRET: TEST_SESSION_SECRET,
        PUBLIC_BASE_URL: server.url,
        LOG_LEVEL: "silent",
      },
      ["--email", email, "--name", "Printed", "--link"],
    );
    expect(printed.code).toBe(0);
    const link = printed.stdout.trim();
    expect(link.startsWith(`${server.url}/auth/link?token=`)).toBe(true);
    const used = await open(link);
    expect(used).toMatchObject({ status: 303, location: "/docs" });
    const me = await fetch(`${server.url}/api/v1/me`, {
      headers: { cookie: `app-auth.session_token=${used.session}` },
    });
    expect(await me.json()).toMatchObject({ id: userIdForEmail(email), name: "Printed" });
    expect((await open(link)).status).toBe(401);
  }, 30_000);
});
