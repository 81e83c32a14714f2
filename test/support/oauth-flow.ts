// Drives the authorization server over HTTP as a client and a signed-in browser would: registration, the
// authorization request, the consent form, the token endpoint. Cookies are kept per "browser".
import { createHash, randomBytes } from "node:crypto";
import { SESSION_COOKIE } from "../../shared/auth/session-verifier.ts";
import type { TestUser } from "./server.ts";

export const pkcePair = (): { verifier: string; challenge: string } => {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
};

/** A browser's cookies for one origin: enough for the flow's redirects (no paths, no expiry). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  constructor(initial: Record<string, string> = {}) {
    for (const [name, value] of Object.entries(initial)) this.cookies.set(name, value);
  }

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const index = pair.indexOf("=");
      if (index <= 0) continue;
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

export interface RegisteredTestClient {
  readonly clientId: string;
  readonly redirectUri: string;
}

export async function registerClient(
  baseUrl: string,
  metadata: Record<string, unknown> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Test Agent",
      redirect_uris: ["http://127.0.0.1:8976/callback"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...metadata,
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export async function newClient(
  baseUrl: string,
  metadata: Record<string, unknown> = {},
): Promise<RegisteredTestClient> {
  const { status, body } = await registerClient(baseUrl, metadata);
  if (status !== 201 || typeof body.client_id !== "string")
    throw new Error(`registration failed: ${status} ${JSON.stringify(body)}`);
  const [redirectUri] = body.redirect_uris as string[];
  return { clientId: body.client_id, redirectUri: redirectUri ?? "" };
}

export const authorizeUrl = (baseUrl: string, params: Record<string, string>): string =>
  `${baseUrl}/oauth/authorize?${new URLSearchParams(params).toString()}`;

/** GET without following redirects, cookies kept. */
export async function browse(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, {
    ...init,
    redirect: "manual",
    headers: { ...(init.headers as Record<string, string> | undefined), cookie: jar.header() },
  });
  jar.take(response);
  return response;
}

/** Follows same-origin redirects until one leaves the origin (or a page answers). */
export async function follow(
  jar: CookieJar,
  baseUrl: string,
  url: string,
  init: RequestInit = {},
): Promise<{ response: Response; url: string }> {
  let current = url;
  let response = await browse(jar, current, init);
  for (let hops = 0; hops < 10 && response.status >= 300 && response.status < 400; hops++) {
    const location = response.headers.get("location");
    if (!location) break;
    current = new URL(location, current).href;
    if (!current.startsWith(baseUrl)) return { response, url: current };
    response = await browse(jar, current);
  }
  return { response, url: current };
}

export interface AuthorizationOutcome {
  /** Where the browser was finally sent (the client's redirect URI with code or error, or a page of ours). */
  readonly url: string;
  readonly response: Response;
}

/** The whole browser half: authorization request, consent page, the user's answer. */
export async function authorize(
  baseUrl: string,
  user: TestUser,
  params: Record<string, string>,
  answer: { decision: "approve" | "deny"; scopes?: string[] } = { decision: "approve" },
): Promise<AuthorizationOutcome> {
  const jar = new CookieJar({
    [SESSION_COOKIE]: user.credentials && "cookie" in user.credentials ? user.credentials.cookie : "",
  });
  const first = await follow(jar, baseUrl, authorizeUrl(baseUrl, params));
  if (!first.url.includes("/oauth/consent/") || first.response.status !== 200) return first;
  const html = await first.response.text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
  const offered = [...html.matchAll(/name="scope" value="([^"]+)"/g)].map((match) => match[1] ?? "");
  const form = new URLSearchParams({ csrf, decision: answer.decision });
  for (const scope of answer.scopes ?? offered) form.append("scope", scope);
  return follow(jar, baseUrl, first.url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl },
    body: form.toString(),
  });
}

export async function tokenRequest(
  baseUrl: string,
  params: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(params).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A client authorized by `user` for `scopes`: its tokens, through the whole flow. */
export async function authorizedApp(baseUrl: string, user: TestUser, scopes: string[], answerScopes?: string[]) {
  const client = await newClient(baseUrl);
  const { verifier, challenge } = pkcePair();
  const outcome = await authorize(
    baseUrl,
    user,
    {
      response_type: "code",
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      scope: scopes.join(" "),
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "s1",
      resource: `${baseUrl}/mcp`,
    },
    { decision: "approve", ...(answerScopes ? { scopes: answerScopes } : {}) },
  );
  const code = new URL(outcome.url).searchParams.get("code");
  if (!code) throw new Error(`no code: ${outcome.url} ${outcome.response.status}`);
  const tokens = await tokenRequest(baseUrl, {
    grant_type: "authorization_code",
    code,
    redirect_uri: client.redirectUri,
    client_id: client.clientId,
    code_verifier: verifier,
    resource: `${baseUrl}/mcp`,
  });
  if (tokens.status !== 200) throw new Error(`token request failed: ${JSON.stringify(tokens.body)}`);
  return {
    client,
    code,
    verifier,
    tokens: tokens.body as { access_token: string; refresh_token: string; scope: string; expires_in: number },
  };
}
