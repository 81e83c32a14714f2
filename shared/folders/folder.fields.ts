// The fields of a folder that a request carries, checked alike by every entry point (HTTP routes, MCP tools,
// imports).
import { nameField } from "../kernel/text-fields.ts";

/** A folder's name, in POST and PATCH /folders and for the folders an import makes. */
export const folderNameField = nameField({ max: 200 }).refine(
  (name) => !name.includes("/"),
  "must not contain '/', which separates folders in folderPath",
);
