// EventStoreDB and MongoDB for the production adapters' contract suites: the server a URL names
// (EVENTSTORE_URL, MONGODB_URL), or else a container started through testcontainers when a container runtime
// answers. Neither can be had on a machine without both, and the suite then skips with one printed line. The
// runtime is detected at once, from DOCKER_HOST or the Docker socket, never by waiting for a timeout.
import { existsSync, statSync } from "node:fs";

export type ServerTarget = { readonly url: string; stop(): Promise<void> } | { readonly skip: string };

const DOCKER_SOCKET = "/var/run/docker.sock";

/** Why no container can be started here, or null when a runtime seems to answer. */
function containerRuntimeMissing(): string | null {
  if (process.env.DOCKER_HOST) return null;
  if (existsSync(DOCKER_SOCKET) && statSync(DOCKER_SOCKET).isSocket()) return null;
  return `no container runtime (DOCKER_HOST is unset and ${DOCKER_SOCKET} does not exist)`;
}

export async function eventStoreDbServer(): Promise<ServerTarget> {
  const url = process.env.EVENTSTORE_URL;
  if (url) return { url, stop: async () => undefined };
  const missing = containerRuntimeMissing();
  if (missing) return { skip: `EVENTSTORE_URL is unset and ${missing}` };
  const { KurrentDbContainer } = await import("@testcontainers/kurrentdb");
  // The module configures a node through KURRENTDB_* variables only; EventStoreDB 24.10 (the image compose and CI
  // run) reads EVENTSTORE_* and would otherwise start secure without certificates, so the suite would time out.
  const container = await new KurrentDbContainer(process.env.EVENTSTORE_IMAGE ?? "eventstore/eventstore:24.10")
    .withEnvironment({ EVENTSTORE_CLUSTER_SIZE: "1", EVENTSTORE_RUN_PROJECTIONS: "None", EVENTSTORE_INSECURE: "true" })
    .start();
  return { url: container.getConnectionString(), stop: async () => void (await container.stop()) };
}

export async function mongoDbServer(): Promise<ServerTarget> {
  const url = process.env.MONGODB_URL;
  if (url) return { url, stop: async () => undefined };
  const missing = containerRuntimeMissing();
  if (missing) return { skip: `MONGODB_URL is unset and ${missing}` };
  const { MongoDBContainer } = await import("@testcontainers/mongodb");
  // A single-node replica set, as production runs: transactions need one.
  const container = await new MongoDBContainer(process.env.MONGODB_IMAGE ?? "mongo:7").start();
  return {
    url: `${container.getConnectionString()}/?directConnection=true`,
    stop: async () => void (await container.stop()),
  };
}

/** Prints the one line that says why a suite did not run. */
export function reportSkip(suite: string, target: ServerTarget): target is { readonly skip: string } {
  if (!("skip" in target)) return false;
  console.warn(`${suite} skipped: ${target.skip}`);
  return true;
}
