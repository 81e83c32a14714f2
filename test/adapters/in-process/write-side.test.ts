import { inProcessWriteSide } from "../../../services/wiring/command-api.ts";
import { writeSideContract } from "../../contracts/write-side.contract.ts";
import { writeSideFixture } from "../../support/write-side-fixture.ts";

writeSideContract("in process", () =>
  writeSideFixture((server) => inProcessWriteSide(server.internals, server.internals.logger, () => new Date())),
);
