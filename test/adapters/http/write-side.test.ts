import { CommandApiWriteSide } from "../../../shared/adapters/http/command-api.write-side.ts";
import { writeSideContract } from "../../contracts/write-side.contract.ts";
import { writeSideFixture } from "../../support/write-side-fixture.ts";

writeSideContract("command API over HTTP", () => writeSideFixture((server) => new CommandApiWriteSide(server.url)));
