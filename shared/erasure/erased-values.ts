// What a user's sealed fields read as once the user's key is destroyed: an explicit value of each field's own
// type, so every schema still holds (a page's and a folder's: sealed-content.ts). Domain code compares with
// them, so they live apart from the rules, which depend on the whole event union.

/** The name an erased user is shown by. */
export const ERASED_USER_NAME = "Erased user";
/** An erased email address: empty, which no real address is. */
export const ERASED_EMAIL = "";
/** What an erased API token's name reads as. */
export const ERASED_TOKEN_NAME = "Erased token";
/** What a group's name reads as once its workspace owner was erased. */
export const ERASED_GROUP_NAME = "Erased group";
/** What an erased authorized app's name reads as. */
export const ERASED_APP_NAME = "Erased app";
/** An erased webhook's URL: still a URL, on a name that never resolves (RFC 2606), so nothing is sent to it. */
export const ERASED_WEBHOOK_URL = "https://erased.invalid/";
