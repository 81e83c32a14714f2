import { describe, it } from "vitest";
import { folderIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import { vaultExportDecider, type VaultExportEvent } from "../../shared/exports/vault-export.decider.ts";
import { deciderSpec } from "../support/decider-spec.ts";

const { given } = deciderSpec(vaultExportDecider);

const exportId = "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b";
const userId = userIdSchema.parse("0b7c3a52-1d4e-4f6a-8b9c-2e3f4a5b6c7d");
const folderId = folderIdSchema.parse("3d2a4c1e-5b6f-4a7b-8c9d-0e1f2a3b4c5d");

describe("vault export decider", () => {
  it("records an export of a folder, or of the whole workspace, once", () => {
    const exported: VaultExportEvent = { type: "VaultExported", data: { exportId, userId, folderId } };
    given([]).when({ type: "RecordExport", exportId, userId, folderId }).then([exported]);
    given([])
      .when({ type: "RecordExport", exportId, userId, folderId: null })
      .then([{ type: "VaultExported", data: { exportId, userId, folderId: null } }]);
    given([exported]).when({ type: "RecordExport", exportId, userId, folderId }).then([]);
  });
});
