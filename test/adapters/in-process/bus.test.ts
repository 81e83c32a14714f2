import { InProcessBus } from "../../../shared/adapters/in-process/in-process.bus.ts";
import { busContract } from "../../contracts/bus.contract.ts";

busContract("in-process", async () => {
  const bus = new InProcessBus(10);
  return { bus, cleanup: () => bus.close() };
});
