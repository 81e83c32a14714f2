// Request fields only HTTP routes carry: the body limit of the routes that carry a page's markdown, and an
// address to share with. The fields every entry point checks are in each capability's fields module
// (shared/pages/page.fields.ts, shared/folders/folder.fields.ts, shared/threads/thread.fields.ts,
// shared/share-links/share-link.fields.ts) and in
// shared/kernel/text-fields.ts.
import { z } from "zod";
import { normalizeEmail } from "../../../shared/users/user.decider.ts";
import { emailAddress } from "../../../shared/kernel/email.ts";
import { MARKDOWN_MAX_CHARS } from "../../../shared/pages/page.fields.ts";

/**
 * The body limit of the routes that carry a page's markdown, from the page limit in its worst encoding: JSON may
 * write any character as `\uXXXX`, 6 bytes for each of the 500,000 UTF-16 units the limit counts (CJK sent by a
 * client that escapes everything outside ASCII, as Python's json.dumps does by default), plus room for the title,
 * the icon and the rest of the body. The gateway's limit on these routes (deploy/nginx) is at least this.
 */
export const PAGE_BODY_LIMIT_BYTES = MARKDOWN_MAX_CHARS * 6 + 64 * 1024;
/** An address to share with: trimmed, validated, and lower-cased so comparisons ignore case. */
export const emailField = z.string().trim().pipe(emailAddress).transform(normalizeEmail);
