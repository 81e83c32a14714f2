// Which redirect URIs a client may register: https anywhere, http only to a loopback address (RFC 8252 native
// apps), or a private-use scheme of an installed app (cursor://, com.example.app:/); never a scheme a browser runs
// or reads locally. The authorization server matches them exactly. Pure.
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);
const REFUSED_SCHEMES = new Set([
  "javascript:",
  "data:",
  "file:",
  "vbscript:",
  "blob:",
  "about:",
  "ftp:",
  "ws:",
  "wss:",
]);

export function redirectUriProblem(uri: string): string | null {
  const url = URL.parse(uri);
  if (!url) return `${uri} is not a URL`;
  if (url.hash) return `${uri} has a fragment`;
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:")
    return LOOPBACK_HOSTS.has(url.hostname) ? null : `${uri}: http redirects go to a loopback address only`;
  if (REFUSED_SCHEMES.has(url.protocol)) return `${uri}: the ${url.protocol} scheme is refused`;
  return null;
}

/** What the consent form's policy names for where its answer redirects: the origin, or an app's own scheme. */
export function redirectTarget(uri: string): string | null {
  const url = URL.parse(uri);
  if (!url) return null;
  return url.protocol === "https:" || url.protocol === "http:" ? url.origin : url.protocol;
}
