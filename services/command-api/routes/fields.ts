// Bounds of request fields that several routes share.
import { z } from "zod";
import { normalizeEmail } from "../../../shared/users/user.decider.ts";

export const iconField = z.string().trim().min(1).max(256);
export const titleField = z.string().trim().min(1).max(200);
export const MARKDOWN_MAX_CHARS = 500_000;
export const markdownField = z.string().max(MARKDOWN_MAX_CHARS);
/** An address to share with: trimmed, validated, and lower-cased so comparisons ignore case. */
export const emailField = z.string().trim().max(320).pipe(z.email()).transform(normalizeEmail);
