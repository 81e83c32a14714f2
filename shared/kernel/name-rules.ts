// What a name or title may hold, wherever it comes from (a request body, a session's claims, an imported file
// name): no C0 or C1 control characters (a line break in a name reaches mail headers and text bodies) and no
// bidirectional override or isolate controls (U+202A–U+202E, U+2066–U+2069), which make `gpj.exe` read as
// `exe.jpg`. Zero-width characters are allowed in a name but ignored wherever names are compared.

const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F]/;
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;
/** Characters that show nothing: zero-width space, joiners, word joiner, soft hyphen, BOM, Mongolian vowel separator. */
const ZERO_WIDTH = /[\u00AD\u180E\u200B-\u200D\u2060\uFEFF]/g;

/** Why `name` may not be a name, or null when it may. */
export function nameProblem(name: string): string | null {
  if (CONTROL_CHARACTERS.test(name)) return "must not hold control characters";
  if (BIDI_CONTROLS.test(name))
    return "must not hold bidirectional override or isolate characters (U+202A–U+202E, U+2066–U+2069)";
  return null;
}

/** `name` without the characters that show nothing, for comparing names as a reader sees them. */
export const withoutZeroWidth = (name: string): string => name.replace(ZERO_WIDTH, "");
