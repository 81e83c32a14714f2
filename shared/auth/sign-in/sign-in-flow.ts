// A sign-in under way, kept in the browser that started it: state, nonce and PKCE verifier in a short-lived
// signed cookie (HttpOnly, SameSite=Lax, sent to /auth/callback only). Nothing is stored on the server, so the
// callback may reach any node of a split deployment, and only the browser that started a sign-in can finish it.
import { jwtVerify, SignJWT } from "jose";
import { z } from "zod";
import { purposeKey } from "./purpose-key.ts";
import { returnToSchema } from "./return-to.ts";
import type { KeyObject } from "node:crypto";

export const SIGN_IN_FLOW_COOKIE = "app-auth.sign_in";
export const CALLBACK_PATH = "/auth/callback";
/** How long a person has at the provider before the sign-in must be started again. */
export const SIGN_IN_FLOW_SECONDS = 10 * 60;

const FLOW_TYPE = "sign-in-flow+jwt";

/** What the callback needs to check the provider's answer; all of it random except where the person returns. */
const signInFlowSchema = z.object({
  state: z.string().min(16).max(128),
  nonce: z.string().min(16).max(128),
  codeVerifier: z.string().min(43).max(128),
  returnTo: returnToSchema,
});
export type SignInFlow = z.infer<typeof signInFlowSchema>;

/** A compact JWS, as the cookie carries it: anything else is not looked at further. */
export const compactJwsSchema = z
  .string()
  .max(4096)
  .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);

export class SignInFlowSeal {
  private readonly key: KeyObject;

  /** `secret`: the session secret, which sessions started with what this opens are signed with too. */
  constructor(readonly secret: string) {
    this.key = purposeKey(secret, "sign-in-flow");
  }

  seal(flow: SignInFlow, now: Date): Promise<string> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    return new SignJWT({ ...flow })
      .setProtectedHeader({ alg: "HS256", typ: FLOW_TYPE })
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + SIGN_IN_FLOW_SECONDS)
      .sign(this.key);
  }

  /** The flow the cookie holds, or null for a cookie that is not one of ours, was altered or has expired. */
  async open(cookie: string, now: Date): Promise<SignInFlow | null> {
    const compact = compactJwsSchema.safeParse(cookie);
    if (!compact.success) return null;
    try {
      const { payload } = await jwtVerify(compact.data, this.key, {
        algorithms: ["HS256"],
        typ: FLOW_TYPE,
        currentDate: now,
        requiredClaims: ["exp"],
      });
      const flow = signInFlowSchema.safeParse(payload);
      return flow.success ? flow.data : null;
    } catch {
      return null;
    }
  }
}
