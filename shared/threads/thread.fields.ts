// The fields of a thread that a request carries, checked alike by every entry point (HTTP routes, MCP tools).
import { z } from "zod";
import { textField, visibleTextField } from "../kernel/text-fields.ts";

const COMMENT_BODY_MAX_CHARS = 10_000;
const ANCHOR_QUOTE_MAX_CHARS = 2_000;
const ANCHOR_CONTEXT_MAX_CHARS = 500;

// Kept as sent (markdown may start with indentation), but a body of only invisible characters says nothing.
export const commentBody = visibleTextField({ max: COMMENT_BODY_MAX_CHARS, multiLine: true, trim: false });
export const anchorField = z.object({
  quote: visibleTextField({ max: ANCHOR_QUOTE_MAX_CHARS, multiLine: true, trim: false }),
  prefix: textField({ max: ANCHOR_CONTEXT_MAX_CHARS, multiLine: true, trim: false }).default(""),
  suffix: textField({ max: ANCHOR_CONTEXT_MAX_CHARS, multiLine: true, trim: false }).default(""),
});
