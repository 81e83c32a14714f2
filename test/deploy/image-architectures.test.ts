// The image builds on arm64 (Apple Silicon, Graviton) as on x64: every npm step of the Dockerfile installs for
// both. npm checks a required package's cpu and os against the machine it runs on only (--cpu and --os choose
// among optional packages), so this test reads them itself: from the lockfile for `npm ci`, from the registry
// for a package a step names. And `npm ci --dry-run --cpu=... --os=linux` picks, for each architecture, the
// platform packages of the same native modules (sharp, esbuild...): none exists for one architecture only.
import { copyFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runToEnd } from "../support/image-shells.ts";
import { tempDir } from "../support/temp-dir.ts";

const ARCHITECTURES = ["x64", "arm64"] as const;
type Architecture = (typeof ARCHITECTURES)[number];

/** The build stage's npm commands, each as its words (continuation lines joined, `&&` chains split). */
function npmSteps(dockerfile: string): string[][] {
  const build = dockerfile.split(/^FROM /m)[1] ?? "";
  const runs = [...build.replace(/\\\n/g, " ").matchAll(/^RUN (.+)$/gm)].map((match) => match[1] ?? "");
  return runs
    .flatMap((run) => run.split("&&"))
    .map((command) =>
      command
        .trim()
        .split(/\s+/)
        .filter((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)),
    )
    .filter((words) => words[0] === "npm");
}

/** Whether a package's `cpu` or `os` list (npm's syntax: allowed names, or "!name" exclusions) admits `value`. */
function admits(list: readonly string[] | undefined, value: string): boolean {
  if (!list || list.length === 0) return true;
  if (list.includes(`!${value}`)) return false;
  const allowed = list.filter((entry) => !entry.startsWith("!"));
  return allowed.length === 0 || allowed.includes(value);
}

/** npm view prints a one-entry list as its entry. */
const platformList = z.union([z.string().transform((entry) => [entry]), z.array(z.string())]).optional();
const platformFields = z.object({ cpu: platformList, os: platformList });
const lockfileSchema = z.object({
  packages: z.record(
    z.string(),
    platformFields.extend({ optional: z.boolean().optional(), dev: z.boolean().optional() }),
  ),
});

const dockerfile = readFileSync("Dockerfile", "utf8");
const steps = npmSteps(dockerfile);
/** npm as the developer's shell runs it (its registry, proxy and certificate settings come from the environment). */
const npmEnv = Object.fromEntries(
  Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
);
const REGISTRY_DOWN = /E(NOTFOUND|AI_AGAIN|CONNREFUSED|CONNRESET|TIMEDOUT)|network/;

describe("the image's npm steps", () => {
  it("install from the lockfile with npm ci, which the Dockerfile copies in with package.json and .npmrc", () => {
    expect(steps.filter((words) => words[1] === "ci")).toHaveLength(1);
    expect(dockerfile).toMatch(/^COPY package\.json package-lock\.json \.npmrc \.\/$/m);
  });

  it("require no package that linux on arm64 or x64 refuses", async () => {
    const refused: string[] = [];
    const { packages } = lockfileSchema.parse(JSON.parse(readFileSync("package-lock.json", "utf8")));
    for (const [path, entry] of Object.entries(packages)) {
      if (path === "" || entry.optional === true) continue;
      for (const arch of ARCHITECTURES)
        if (!admits(entry.cpu, arch) || !admits(entry.os, "linux")) refused.push(`${path} on linux-${arch}`);
    }
    // A package a step names outright (`npm install name@version`), as the registry describes it.
    for (const words of steps.filter((command) => command[1] === "install")) {
      const specs = words
        .slice(2)
        .filter((word, index, all) => !word.startsWith("-") && !all[index - 1]?.match(/^--(prefix|cache|registry)$/));
      for (const spec of specs) {
        const viewed = await runToEnd("npm", ["view", spec, "cpu", "os", "--json"], npmEnv, 60_000);
        if (viewed.status !== 0 && REGISTRY_DOWN.test(viewed.output) && process.env.CI !== "true") {
          console.warn(`npm registry unreachable: ${spec} not checked`);
          continue;
        }
        expect(viewed.status, viewed.output).toBe(0);
        const fields = platformFields.parse(viewed.output.trim() ? JSON.parse(viewed.output) : {});
        for (const arch of ARCHITECTURES)
          if (!admits(fields.cpu, arch) || !admits(fields.os, "linux")) refused.push(`${spec} on linux-${arch}`);
      }
    }
    expect(refused).toEqual([]);
  }, 120_000);

  it("pick each native module's binaries for arm64 as for x64", async () => {
    const dir = await tempDir();
    try {
      for (const file of ["package.json", "package-lock.json", ".npmrc"]) await copyFile(file, join(dir.path, file));
      const added = async (arch: Architecture) => {
        const run = await runToEnd(
          "npm",
          [
            "ci",
            "--prefix",
            dir.path,
            "--dry-run",
            `--cpu=${arch}`,
            "--os=linux",
            "--libc=glibc",
            "--no-audit",
            "--no-fund",
          ],
          npmEnv,
          120_000,
        );
        expect(run.output).not.toContain("EBADPLATFORM");
        expect(run.status, run.output).toBe(0);
        return new Set([...run.output.matchAll(/^add (\S+) /gm)].map((match) => match[1] ?? ""));
      };
      const [x64, arm64] = await Promise.all([added("x64"), added("arm64")]);
      const platformOnly = (names: Set<string>, arch: Architecture) =>
        [...names]
          .filter((name) => name.includes(arch))
          .map((name) => name.replace(arch, "ARCH"))
          .sort();
      expect(platformOnly(x64, "x64").length).toBeGreaterThan(0);
      expect(platformOnly(arm64, "arm64")).toEqual(platformOnly(x64, "x64"));
    } finally {
      await dir.remove();
    }
  }, 180_000);
});
