import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../shared/config/config.ts";

describe("configuration", () => {
  it("has the documented defaults", () => {
    expect(loadConfig({})).toMatchObject({ PORT: 3000, HOST: "127.0.0.1", DATA_DIR: "./data", LOG_LEVEL: "info" });
  });

  it("names the variable whose value is bad", () => {
    expect(() => loadConfig({ PORT: "70000" })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: "70000" })).toThrow(/PORT/);
    expect(() => loadConfig({ AUTH_SESSION_SECRET: "short" })).toThrow(/AUTH_SESSION_SECRET/);
    expect(() => loadConfig({ LOG_LEVEL: "loud" })).toThrow(/LOG_LEVEL/);
    expect(() => loadConfig({ METRICS_PORT: "metrics" })).toThrow(/METRICS_PORT/);
  });

  it("takes OpenID Connect sign-in's three settings together or not at all, never beside AUTH_JWKS_URL, and an issuer over https or on loopback", () => {
    const oidc = {
      OIDC_ISSUER: "https://login.example.com",
      OIDC_CLIENT_ID: "workspace",
      OIDC_CLIENT_SECRET: "s3cret",
    };
    expect(loadConfig(oidc)).toMatchObject(oidc);
    expect(loadConfig({ ...oidc, OIDC_ISSUER: "http://127.0.0.1:9000" }).OIDC_ISSUER).toBe("http://127.0.0.1:9000");
    expect(() => loadConfig({ OIDC_ISSUER: oidc.OIDC_ISSUER, OIDC_CLIENT_ID: oidc.OIDC_CLIENT_ID })).toThrow(
      /OIDC_CLIENT_SECRET missing/,
    );
    expect(() => loadConfig({ OIDC_CLIENT_SECRET: oidc.OIDC_CLIENT_SECRET })).toThrow(
      /OIDC_ISSUER, OIDC_CLIENT_ID missing/,
    );
    expect(() => loadConfig({ ...oidc, AUTH_JWKS_URL: "https://login.example.com/jwks" })).toThrow(
      /cannot be used with AUTH_JWKS_URL/,
    );
    expect(() => loadConfig({ ...oidc, OIDC_ISSUER: "http://login.example.com" })).toThrow(
      /OIDC_ISSUER: must be https/,
    );
  });

  it("fetches client metadata documents from private networks only when told to, whatever webhooks may do", () => {
    expect(loadConfig({}).OAUTH_CLIENT_METADATA_ALLOW_PRIVATE_NETWORKS).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" }).OAUTH_CLIENT_METADATA_ALLOW_PRIVATE_NETWORKS).toBe(
      false,
    );
    expect(loadConfig({ OAUTH_CLIENT_METADATA_ALLOW_PRIVATE_NETWORKS: "true" })).toMatchObject({
      OAUTH_CLIENT_METADATA_ALLOW_PRIVATE_NETWORKS: true,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: false,
    });
    expect(() => loadConfig({ OAUTH_CLIENT_METADATA_ALLOW_PRIVATE_NETWORKS: "yes" })).toThrow(
      /OAUTH_CLIENT_METADATA_ALLOW_PRIVATE_NETWORKS/,
    );
  });

  it("serves no separate metrics port unless METRICS_PORT is set", () => {
    expect(loadConfig({}).METRICS_PORT).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: "9464" }).METRICS_PORT).toBe(9464);
  });
});
