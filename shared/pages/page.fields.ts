// The fields of a page that a request carries, checked alike by every entry point (HTTP routes, MCP tools,
// imports).
import { nameField, textField } from "../kernel/text-fields.ts";

export const titleField = nameField({ max: 200 });
export const MARKDOWN_MAX_CHARS = 500_000;
/** Markdown keeps its indentation and line breaks; control characters other than tab and line breaks are refused. */
export const markdownField = textField({ max: MARKDOWN_MAX_CHARS, multiLine: true, trim: false });
