// Bounds and hygiene of the text fields a request carries, for every entry point (HTTP routes, MCP tools,
// imports). Text is checked for lone surrogates (which the event store and the read model would each store
// differently) and normalised to NFC, so that what is recorded, stored and looked up is one string; control
// characters and text made only of invisible characters are refused.
import { z } from "zod";
import { nameProblem } from "./name-rules.ts";

/** C0 and C1 controls; multi-line text keeps tab, line feed and carriage return. */
const CONTROL_SINGLE_LINE = /[\u0000-\u001F\u007F-\u009F]/;
const CONTROL_MULTI_LINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** In unicode mode a surrogate range matches only an unpaired half: paired ones read as one code point. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
/** Whitespace and the zero-width and formatting characters that show nothing. */
const INVISIBLE_ONLY = /^[\s\u00AD\u180E\u200B-\u200F\u2028-\u202F\u205F-\u2064\u3000\uFEFF]*$/;

/** Well-formed, NFC text without control characters: `multiLine` keeps tabs and line breaks. */
export function textField(options: { max: number; multiLine?: boolean; trim?: boolean }) {
  const control = options.multiLine ? CONTROL_MULTI_LINE : CONTROL_SINGLE_LINE;
  return z
    .string()
    .refine((text) => !LONE_SURROGATE.test(text), "must not hold a lone surrogate")
    .transform((text) => (options.trim === false ? text.normalize("NFC") : text.normalize("NFC").trim()))
    .pipe(
      z
        .string()
        .max(options.max)
        .refine((text) => !control.test(text), "must not hold control characters"),
    );
}

/** Like textField, and not empty nor made only of invisible characters. */
export function visibleTextField(options: { max: number; multiLine?: boolean; trim?: boolean }) {
  return textField(options).pipe(
    z.string().refine((text) => !INVISIBLE_ONLY.test(text), "must not be empty or only invisible characters"),
  );
}

/** A name or title (name-rules.ts): visible text without bidirectional controls either. */
export function nameField(options: { max: number }) {
  return visibleTextField(options).superRefine((name, context) => {
    const problem = nameProblem(name);
    if (problem) context.addIssue({ code: "custom", message: problem });
  });
}

/** A page's or a folder's icon: an emoji or a short name. */
export const iconField = nameField({ max: 256 });
