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

  it("serves no separate metrics port unless METRICS_PORT is set", () => {
    expect(loadConfig({}).METRICS_PORT).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: "9464" }).METRICS_PORT).toBe(9464);
  });
});
