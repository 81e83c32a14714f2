import { eventStoreContract } from "../../contracts/event-store.contract.ts";
import { sqliteEventStoreFactory } from "../../support/stores.ts";

eventStoreContract("SQLite", sqliteEventStoreFactory);
