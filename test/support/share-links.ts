// Share links made through the public API, and plain requests to their public pages.
import type { Client } from "./server.ts";

export interface CreatedLink {
  readonly id: string;
  readonly url: string;
  /** The link's public path, `/s/<secret>`. */
  readonly path: string;
}

export async function createShareLink(
  client: Client,
  entityType: "page" | "folder",
  entityId: string,
  body: Record<string, unknown> = {},
): Promise<CreatedLink> {
  const reply = await client.post(`/${entityType}s/${entityId}/share-links`, body);
  if (reply.status !== 201) throw new Error(`create share link: expected 201, got ${reply.status} ${reply.text}`);
  const url = String(reply.body.url);
  return { id: String(reply.body.id), url, path: new URL(url, "http://x").pathname };
}

export interface PublicReply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** A request as a browser without any account makes it (no redirects followed). */
export async function publicRequest(
  baseUrl: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<PublicReply> {
  const response = await fetch(`${baseUrl}${path}`, { ...init, redirect: "manual" });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

export function unlock(
  baseUrl: string,
  path: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<PublicReply> {
  return publicRequest(baseUrl, path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ password }).toString(),
  });
}
