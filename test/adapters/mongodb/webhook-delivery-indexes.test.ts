// The delivery log's queries that run on a timer have an index that starts with what they filter on: checked
// on the index definitions here, where MongoDB does not run (the contract runs them in CI's production job).
import { expect, it } from "vitest";
import { webhookDeliveryIndexes } from "../../../shared/adapters/mongodb/webhook-deliveries.mongo.ts";

it("serves the backlog metric's count of pending deliveries and its oldest one from an index starting with status", () => {
  const backlog = webhookDeliveryIndexes.filter(
    (index) => index.collection === "webhook_deliveries" && Object.keys(index.keys)[0] === "status",
  );
  expect(backlog.map((index) => Object.keys(index.keys))).toContainEqual(["status", "createdAt"]);
  // Partial on pending rows, as SQLite's: delivered and failed rows, most of the log, are not in it.
  expect(backlog.find((index) => Object.keys(index.keys)[1] === "createdAt")?.options?.partialFilterExpression).toEqual(
    { status: "pending" },
  );
});

it("names every index of the delivery log once", () => {
  const names = webhookDeliveryIndexes.map((index) => index.name);
  expect(new Set(names).size).toBe(names.length);
});
