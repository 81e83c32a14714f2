// Bounds of request fields that several routes share.
import { z } from "zod";

export const iconField = z.string().trim().min(1).max(256);
export const titleField = z.string().trim().min(1).max(200);
export const MARKDOWN_MAX_CHARS = 500_000;
export const markdownField = z.string().max(MARKDOWN_MAX_CHARS);
