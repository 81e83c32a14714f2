import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, rateLimitPolicies } from "../../shared/config/config.ts";
import { rateLimitFields, verdictFor, windowAt } from "../../shared/rate-limit/rate-limit-policy.ts";
import { rateLimitClassOf } from "../../shared/rate-limit/request-class.ts";

describe("rate-limit configuration", () => {
  it("has generous defaults for every class, and a tight one for sharing, where each request may probe an address", () => {
    expect(rateLimitPolicies(loadConfig({}))).toEqual({
      read: { quota: 12_000, windowSeconds: 60 },
      write: { quota: 3_000, windowSeconds: 60 },
      search: { quota: 1_200, windowSeconds: 60 },
      upload: { quota: 300, windowSeconds: 60 },
      import: { quota: 60, windowSeconds: 60 },
      sharing: { quota: 60, windowSeconds: 3_600 },
    });
  });

  it("reads <quota>/<window> in seconds, minutes, hours or days, and off", () => {
    const config = loadConfig({
      RATE_LIMIT_READ: "20/10s",
      RATE_LIMIT_WRITE: "5000/1h",
      RATE_LIMIT_SEARCH: "off",
      RATE_LIMIT_IMPORT: "100/1d",
    });
    expect(rateLimitPolicies(config)).toMatchObject({
      read: { quota: 20, windowSeconds: 10 },
      write: { quota: 5_000, windowSeconds: 3_600 },
      search: null,
      import: { quota: 100, windowSeconds: 86_400 },
    });
  });

  it("names the variable whose value is bad", () => {
    for (const bad of ["100", "0/1m", "100/0s", "100/1w", "-1/1m", "100/8d"]) {
      expect(() => loadConfig({ RATE_LIMIT_UPLOAD: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ RATE_LIMIT_UPLOAD: bad })).toThrow(/RATE_LIMIT_UPLOAD/);
    }
  });
});

describe("trusted proxies", () => {
  it("take addresses, CIDR ranges and proxy-addr's names, and name the variable when one is bad", () => {
    expect(loadConfig({ TRUST_PROXY: "loopback, 10.0.0.0/8,fd00::/8,192.168.1.7" }).TRUST_PROXY).toBe(
      "loopback, 10.0.0.0/8,fd00::/8,192.168.1.7",
    );
    for (const bad of ["gateway", "10.0.0.0/33", "10.0.0.1/8/1", "loopback,"])
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
  });
});

describe("fixed windows", () => {
  const policy = { quota: 2, windowSeconds: 60 };

  it("puts moments of one window under one key, and the next window under another", () => {
    const start = Date.UTC(2026, 0, 1, 0, 1, 0);
    const early = windowAt("write", "user:a", policy, start);
    const late = windowAt("write", "user:a", policy, start + 59_999);
    expect(late.key).toBe(early.key);
    expect(early.resetSeconds).toBe(60);
    expect(late.resetSeconds).toBe(1);
    expect(windowAt("write", "user:a", policy, start + 60_000).key).not.toBe(early.key);
    expect(windowAt("write", "user:b", policy, start).key).not.toBe(early.key);
    expect(windowAt("read", "user:a", policy, start).key).not.toBe(early.key);
  });

  it("never puts a caller's address or id in a key", () => {
    expect(windowAt("read", "address:2001:db8::1", policy, 0).key).toMatch(/^read\.[0-9a-f]{32}\.0$/);
  });

  it("allows the quota and refuses the next, saying what is left and when it resets", () => {
    const window = windowAt("search", "user:a", policy, Date.UTC(2026, 0, 1, 0, 0, 45));
    expect(rateLimitFields("search", policy, verdictFor(policy, window, 1))).toEqual({
      "ratelimit-policy": '"search";q=2;w=60',
      ratelimit: '"search";r=1;t=15',
    });
    expect(verdictFor(policy, window, 2)).toEqual({ allowed: true, remaining: 0, resetSeconds: 15 });
    expect(verdictFor(policy, window, 3)).toEqual({ allowed: false, remaining: 0, resetSeconds: 15 });
  });
});

describe("request classes", () => {
  it("derive from the method and the route", () => {
    expect(rateLimitClassOf("GET", "/api/v1/pages/:pageId")).toBe("read");
    expect(rateLimitClassOf("GET", "/api/v1/search")).toBe("search");
    expect(rateLimitClassOf("POST", "/api/v1/pages")).toBe("write");
    expect(rateLimitClassOf("DELETE", "/api/v1/tokens/:tokenId")).toBe("write");
    expect(rateLimitClassOf("POST", "/api/v1/pages/:pageId/images")).toBe("upload");
    expect(rateLimitClassOf("POST", "/api/v1/imports/obsidian")).toBe("import");
  });

  it("leave health, readiness, metrics and the services' internal calls unlimited", () => {
    for (const route of ["/healthz", "/readyz", "/metrics", "/internal/v1/sightings", "/internal/v1/head"])
      expect(rateLimitClassOf(route === "/internal/v1/sightings" ? "POST" : "GET", route)).toBeNull();
  });
});
