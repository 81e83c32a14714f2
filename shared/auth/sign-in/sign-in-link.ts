// One-time sign-in links for local use: a short-lived token naming the person, signed with a key derived from
// the session secret (so the server that holds the secret is the only one that can open it), carried in the
// link's query. Its single use is recorded by sign-in-link.decider.ts.
import { randomUUID, type KeyObject } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";
import { z } from "zod";
import { sessionClaimsSchema } from "../session-verifier.ts";
import { purposeKey } from "./purpose-key.ts";
import { compactJwsSchema } from "./sign-in-flow.ts";
import type { SignedInPerson } from "./oidc-sign-in.ts";

export const SIGN_IN_LINK_PATH = "/auth/link";
/** How long a printed link works: long enough to paste it into a browser, short enough not to linger. */
export const SIGN_IN_LINK_SECONDS = 15 * 60;

const LINK_TYPE = "sign-in-link+jwt";

const linkClaimsSchema = sessionClaimsSchema
  .pick({ sub: true, email: true, name: true, picture: true })
  .extend({ jti: z.uuid() });

export interface OpenedSignInLink {
  readonly linkId: string;
  readonly person: SignedInPerson;
}

export class SignInLinks {
  private readonly key: KeyObject;

  /** `secret`: the session secret, which sessions started with what this opens are signed with too. */
  constructor(readonly secret: string) {
    this.key = purposeKey(secret, "sign-in-link");
  }

  /** The link's token for `person`, working from `now` for `seconds`. */
  mint(person: SignedInPerson, now: Date, seconds = SIGN_IN_LINK_SECONDS): Promise<string> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    return new SignJWT({
      email: person.email,
      name: person.name,
      ...(person.picture ? { picture: person.picture } : {}),
    })
      .setProtectedHeader({ alg: "HS256", typ: LINK_TYPE })
      .setSubject(person.sub)
      .setJti(randomUUID())
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + seconds)
      .sign(this.key);
  }

  /** The link's id and person, or null for a token that is not one of ours, was altered or has expired. */
  async open(token: string, now: Date): Promise<OpenedSignInLink | null> {
    const compact = compactJwsSchema.safeParse(token);
    if (!compact.success) return null;
    try {
      const { payload } = await jwtVerify(compact.data, this.key, {
        algorithms: ["HS256"],
        typ: LINK_TYPE,
        currentDate: now,
        requiredClaims: ["exp", "jti", "sub"],
      });
      const claims = linkClaimsSchema.safeParse(payload);
      if (!claims.success) return null;
      const { jti, ...person } = claims.data;
      return {
        linkId: jti,
        person: {
          sub: person.sub,
          email: person.email,
          name: person.name,
          ...(person.picture ? { picture: person.picture } : {}),
        },
      };
    } catch {
      return null;
    }
  }
}
