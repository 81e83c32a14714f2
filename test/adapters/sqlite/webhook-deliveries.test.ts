import { join } from "node:path";
import { SqliteWebhookDeliveries } from "../../../shared/adapters/sqlite/webhook-deliveries.sqlite.ts";
import { webhookDeliveriesContract } from "../../contracts/webhook-deliveries.contract.ts";
import { tempDir } from "../../support/temp-dir.ts";

webhookDeliveriesContract("SQLite", async () => {
  const dir = await tempDir();
  const file = join(dir.path, "webhooks.sqlite");
  const opened = [new SqliteWebhookDeliveries(file)];
  const [store] = opened;
  if (!store) throw new Error("not opened");
  return {
    store,
    second: async () => {
      const another = new SqliteWebhookDeliveries(file);
      opened.push(another);
      return another;
    },
    cleanup: async () => {
      for (const each of opened) await each.close();
      await dir.remove();
    },
  };
});
