// Which names a request may reach this service by, against DNS rebinding: a page on another site whose name
// resolves to this server sends its own name as Host and its own origin as Origin. Trusted: PUBLIC_BASE_URL's
// host name, the names ALLOWED_HOSTS lists, and the loopback names (never a name someone else controls). Host
// names are compared without their ports. Pure.

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

/** `example.com` from `example.com:8080`, `[::1]` from `[::1]:3000`, lower-cased; null when it is no host. */
function hostnameOf(host: string): string | null {
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return null;
  }
}

export class TrustedHosts {
  private readonly names: ReadonlySet<string>;

  constructor(publicBaseUrl: string | null, allowedHosts: readonly string[] = []) {
    const configured = [...(publicBaseUrl ? [new URL(publicBaseUrl).host] : []), ...allowedHosts]
      .map(hostnameOf)
      .filter((name): name is string => name !== null);
    this.names = new Set([...LOOPBACK, ...configured]);
  }

  /** Whether a Host header names this service. */
  host(host: string | undefined): boolean {
    const name = host ? hostnameOf(host) : null;
    return name !== null && this.names.has(name);
  }

  /** Whether an Origin header is this service's (absent: not a browser's cross-site request, trusted). */
  origin(origin: string | undefined): boolean {
    if (origin === undefined) return true;
    try {
      const url = new URL(origin);
      return (url.protocol === "http:" || url.protocol === "https:") && this.names.has(url.hostname.toLowerCase());
    } catch {
      return false;
    }
  }
}
