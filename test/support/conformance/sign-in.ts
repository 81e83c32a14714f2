// Signing in, as a browser meets it, against a real OpenID provider (test/support/oidc-provider.ts): the redirect
// to the provider (302), or 503 while it is down; the callback signing in (303), refusing an answer no sign-in of
// this browser awaits (401), an address another account holds (409), a provider gone before the code is redeemed
// (503); the one-time link the same way; logout (204), refused when another site sends it (403). A returnTo off
// the site and a query no provider sends are 400.
import { userIdForEmail } from "../../../shared/auth/derived-user-id.ts";
import { SignInLinks } from "../../../shared/auth/sign-in/sign-in-link.ts";
import type { TestOpenIdProvider } from "../oidc-provider.ts";
import { TEST_SESSION_SECRET, type TestServer } from "../server.ts";
import { expectAnswer, header, type Prober } from "./probe.ts";

export interface SignInProbe {
  readonly prober: Prober;
  readonly provider: TestOpenIdProvider;
  readonly server: TestServer;
}

const unique = (label: string) => `${label}-${crypto.randomUUID().slice(0, 8)}`;

/** The first cookie a Set-Cookie names, as a browser sends it back. */
const cookieOf = (setCookie: string): string => setCookie.split(";")[0] ?? "";

/** Starts a sign-in and has the provider answer it: the callback's path and query, and the browser's cookie. */
async function answered({ prober, provider }: SignInProbe): Promise<{ callback: string; cookie: string }> {
  const started = expectAnswer(await prober.send("GET", "/auth/login?returnTo=%2Fapi%2Fv1%2Fme"), 302, "signIn");
  const answer = new URL(await provider.authorize(header(started, "location")));
  return { callback: `${answer.pathname}${answer.search}`, cookie: cookieOf(header(started, "set-cookie")) };
}

export async function signingIn(probe: SignInProbe): Promise<void> {
  const { prober, provider, server } = probe;
  // Before the provider was ever reached: discovery fails, and is tried again on the next sign-in.
  provider.available = false;
  expectAnswer(await prober.send("GET", "/auth/login"), 503, "signIn while the provider is down");
  provider.available = true;
  expectAnswer(
    await prober.send("GET", `/auth/login?returnTo=${encodeURIComponent("https://evil.example/")}`),
    400,
    "signIn with a returnTo off the site",
  );

  const sub = unique("person");
  provider.person = { sub, email: `${sub}@example.com`, name: "Person" };
  const first = await answered(probe);
  expectAnswer(await prober.send("GET", first.callback, { headers: { cookie: first.cookie } }), 303, "finishSignIn");
  expectAnswer(await prober.send("GET", first.callback), 401, "finishSignIn with no sign-in under way");
  expectAnswer(
    await prober.send("GET", `/auth/callback?code=${"c".repeat(5000)}`),
    400,
    "finishSignIn with a code no provider sends",
  );

  const holder = await prober.signIn("holder");
  provider.person = { sub: unique("impostor"), email: holder.email, name: "Impostor" };
  const taken = await answered(probe);
  expectAnswer(
    await prober.send("GET", taken.callback, { headers: { cookie: taken.cookie } }),
    409,
    "finishSignIn with another account's address",
  );

  provider.person = { sub: unique("late"), email: `${unique("late")}@example.com`, name: "Late" };
  const stranded = await answered(probe);
  provider.available = false;
  try {
    expectAnswer(
      await prober.send("GET", stranded.callback, { headers: { cookie: stranded.cookie } }),
      503,
      "finishSignIn with the provider down",
    );
  } finally {
    provider.available = true;
  }

  const links = new SignInLinks(TEST_SESSION_SECRET);
  const personFor = (email: string) => ({ sub: userIdForEmail(email), email, name: "Linked" });
  const link = `/auth/link?token=${await links.mint(personFor(`${unique("linked")}@example.com`), new Date())}`;
  expectAnswer(await prober.send("GET", link), 303, "signInWithLink");
  expectAnswer(await prober.send("GET", link), 401, "signInWithLink used again");
  expectAnswer(await prober.send("GET", "/auth/link"), 400, "signInWithLink without its token");
  expectAnswer(
    await prober.send("GET", `/auth/link?token=${await links.mint(personFor(holder.email), new Date())}`),
    409,
    "signInWithLink for another account's address",
  );
  await server.internals.projector.stop();
  try {
    const waiting = `/auth/link?token=${await links.mint(personFor(`${unique("waiting")}@example.com`), new Date())}`;
    expectAnswer(await prober.send("GET", waiting), 503, "signInWithLink while the read side lags");
  } finally {
    await server.internals.projector.start();
  }

  expectAnswer(await prober.send("POST", "/auth/logout"), 204, "signOut");
  expectAnswer(
    await prober.send("POST", "/auth/logout", { headers: { "sec-fetch-site": "cross-site" } }),
    403,
    "signOut sent by another site",
  );
}
