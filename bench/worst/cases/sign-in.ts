// Worst cases of signing in and out outside /api/v1: a one-time link of a person never seen, and a browser's
// sign-out. The OpenID routes (/auth/login, /auth/callback) are served only where a provider is configured, which
// the benchmark's server is not.
import { randomUUID } from "node:crypto";
import { SignInLinks } from "../../../shared/auth/sign-in/sign-in-link.ts";
import type { WorstCases } from "./worst-case.ts";

export const signInCases: WorstCases = {
  "GET /auth/link": {
    input: "a link of a person never seen (the account registered on first sight, the link's use recorded)",
    prepare: async (w, n) => {
      const links = new SignInLinks(w.secret);
      const tokens: string[] = [];
      for (let i = 0; i < n; i += 1) {
        const sub = randomUUID();
        tokens.push(
          await links.mint({ sub, email: `linked-${sub.slice(0, 8)}@worst.example`, name: "linked" }, new Date()),
        );
      }
      return tokens;
    },
    request: (_w, token) => ({ method: "GET", path: `/auth/link?token=${encodeURIComponent(token)}` }),
  },
  "POST /auth/logout": {
    input: "a signed-in browser's sign-out, its Origin compared with the server's",
    request: (w) => ({
      method: "POST",
      path: "/auth/logout",
      headers: { cookie: w.owner.cookie, origin: new URL(w.server.url).origin },
    }),
  },
};
