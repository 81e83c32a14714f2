// The files of an Obsidian vault as sent to POST /imports/obsidian (as JSON, or read from a zip), checked and
// sorted into notes, images and attachments (every other file: PDFs, audio, video, office files, archives,
// other image types). Pure: a file that breaks a rule is reported in `errors` and skipped, never written.
import { posix } from "node:path";
import { MAX_SEALED_TEXT_BYTES } from "../event-store/append-size.ts";

/** Per-request bounds: more files, or more bytes of content in all, is 400 with nothing imported. */
export const IMPORT_MAX_FILES = 5_000;
export const IMPORT_MAX_TOTAL_BYTES = 50 * 1024 * 1024;
const IMPORT_MAX_PATH_CHARS = 1_000;
/** One file's content: a note as a page's markdown, an image or an attachment as an upload. */
const IMPORT_MAX_NOTE_CHARS = 500_000;
/** A note becomes one page's event, its content sealed: what a sealed field may hold (768,000 bytes). */
export const IMPORT_MAX_NOTE_BYTES = MAX_SEALED_TEXT_BYTES;
const IMPORT_MAX_IMAGE_BYTES = 10 * 1024 * 1024;

const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const IMAGE_EXTENSIONS = new Set(["png", "jpg", "jpeg", "gif", "webp"]);
const DATA_URL = /^data:([a-z]+\/[a-z0-9.+-]+)?(;[a-z0-9-]+=[^;,]*)*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A file's bytes read only when wanted, a chunk at a time: a zip entry inflated as it streams. */
export interface FileSource {
  /** The file's size as its container declares it (a zip's directory, checked while inflating). */
  readonly size: number;
  open(): Promise<AsyncIterable<Uint8Array> | Iterable<Uint8Array>>;
}

export interface VaultFile {
  readonly path: string;
  /**
   * As the JSON form sends it (a note's text, any other file's base64), the bytes of a zip's note or image, or
   * the source of a zip's other file (read only if a note links it); null for a file whose bytes were left
   * unread (it is reported by name).
   */
  readonly content: string | Uint8Array | FileSource | null;
}

export interface VaultNote {
  /** NFC, `/`-separated, relative to the vault's root: `Projects/Plan.md`. */
  readonly path: string;
  readonly directory: string;
  /** The file name without `.md`: the page's title unless the frontmatter says otherwise. */
  readonly name: string;
  readonly markdown: string;
}

export interface VaultImage {
  readonly path: string;
  readonly bytes: Buffer;
}

/** Any other file: it becomes an attachment of each note that links or embeds it. */
export interface VaultAttachment {
  readonly path: string;
  readonly source: FileSource;
}

const isSource = (content: string | Uint8Array | FileSource): content is FileSource =>
  typeof content === "object" && "open" in content;

/** Bytes in hand as a source. */
const sourceOf = (bytes: Uint8Array): FileSource => ({ size: bytes.byteLength, open: async () => [bytes] });

export interface SortedVault {
  readonly notes: VaultNote[];
  readonly images: VaultImage[];
  readonly attachments: VaultAttachment[];
  readonly errors: string[];
}

/** Why a path is refused, or null when it is a plain relative path. */
function pathProblem(path: string): string | null {
  if (path.length === 0) return "the path is empty";
  if (path.length > IMPORT_MAX_PATH_CHARS) return `the path is longer than ${IMPORT_MAX_PATH_CHARS} characters`;
  if (CONTROL.test(path)) return "the path holds control characters";
  if (LONE_SURROGATE.test(path)) return "the path holds a lone surrogate";
  if (path.includes("\\")) return "the path uses '\\'; vault paths use '/'";
  if (path.startsWith("/")) return "the path starts with '/'; vault paths are relative";
  const segments = path.split("/");
  if (segments.some((segment) => segment === "")) return "the path has an empty segment";
  if (segments.some((segment) => segment === ".." || segment === ".")) return "the path has a '.' or '..' segment";
  if (segments.some((segment) => segment.trim() !== segment || segment.trim() === ""))
    return "a path segment starts or ends with a space";
  return null;
}

/** Base64 or a base64 `data:` URL to bytes; null when it is neither. */
function decodeBase64(content: string): Buffer | null {
  const payload = content.replace(DATA_URL, "").replace(/\s+/g, "");
  if (payload.length === 0 || payload.length % 4 === 1 || !BASE64.test(payload)) return null;
  return Buffer.from(payload, "base64");
}

const extensionOf = (path: string): string => posix.extname(path).slice(1).toLowerCase();

/** Whether an import reads a file of this name whole before it starts (a note, an image); any other is read only if linked. */
export function readWhole(path: string): boolean {
  const extension = extensionOf(path);
  return extension === "md" || IMAGE_EXTENSIONS.has(extension);
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** A note's text: as sent, or its bytes read as UTF-8 (a byte-order mark dropped); null when they are not UTF-8. */
function noteText(content: string | Uint8Array | FileSource): string | null {
  if (typeof content === "string") return content;
  if (isSource(content)) return null;
  try {
    return UTF8.decode(content);
  } catch {
    return null;
  }
}

/** An image's or attachment's bytes: as read from a zip, or decoded from the JSON form's base64. */
function fileBytes(content: string | Uint8Array | FileSource): Buffer | null {
  if (typeof content === "string") return decodeBase64(content);
  return isSource(content) ? null : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
}

export function sortVault(files: readonly VaultFile[]): SortedVault {
  const notes: VaultNote[] = [];
  const images: VaultImage[] = [];
  const attachments: VaultAttachment[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    const problem = pathProblem(file.path);
    const label = JSON.stringify(file.path.slice(0, 200));
    if (problem) {
      errors.push(`${label}: skipped: ${problem}`);
      continue;
    }
    const path = file.path.normalize("NFC");
    // Paths that differ only in case are one file on the systems vaults come from (macOS, Windows).
    const key = path.toLowerCase();
    if (seen.has(key)) {
      errors.push(`${label}: skipped: repeats the path of an earlier file`);
      continue;
    }
    seen.add(key);
    const extension = extensionOf(path);
    if (file.content === null) {
      errors.push(`${label}: skipped: its content was not read`);
    } else if (extension === "md") {
      const content = noteText(file.content);
      if (content === null) {
        errors.push(`${label}: skipped: the note is not UTF-8 text`);
        continue;
      }
      if (content.length > IMPORT_MAX_NOTE_CHARS) {
        errors.push(`${label}: skipped: a note is at most ${IMPORT_MAX_NOTE_CHARS} characters`);
        continue;
      }
      if (Buffer.byteLength(content) > IMPORT_MAX_NOTE_BYTES) {
        errors.push(
          `${label}: skipped: a note is at most ${IMPORT_MAX_NOTE_BYTES} bytes in UTF-8 (what one event may hold)`,
        );
        continue;
      }
      if (LONE_SURROGATE.test(content) || /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/.test(content)) {
        errors.push(`${label}: skipped: the note holds control characters or a lone surrogate`);
        continue;
      }
      const directory = posix.dirname(path) === "." ? "" : posix.dirname(path);
      notes.push({
        path,
        directory,
        name: posix.basename(path).slice(0, -".md".length),
        markdown: content.normalize("NFC"),
      });
    } else if (IMAGE_EXTENSIONS.has(extension)) {
      const bytes = fileBytes(file.content);
      if (!bytes) {
        errors.push(`${label}: skipped: an image's content must be base64 or a base64 data: URL`);
        continue;
      }
      if (bytes.length > IMPORT_MAX_IMAGE_BYTES) {
        errors.push(`${label}: skipped: an image is at most 10 MB`);
        continue;
      }
      images.push({ path, bytes });
    } else if (isSource(file.content)) {
      attachments.push({ path, source: file.content });
    } else {
      const bytes = fileBytes(file.content);
      if (!bytes) {
        errors.push(`${label}: skipped: a file's content must be base64 or a base64 data: URL`);
        continue;
      }
      attachments.push({ path, source: sourceOf(bytes) });
    }
  }
  return { notes, images, attachments, errors };
}

/** The bytes of content a request sends (UTF-8, base64 counted as sent), for the 50 MB bound. */
export function contentBytes(files: readonly VaultFile[]): number {
  const bytesOf = (content: VaultFile["content"]): number => {
    if (content === null) return 0;
    if (typeof content === "string") return Buffer.byteLength(content, "utf8");
    return isSource(content) ? content.size : content.byteLength;
  };
  return files.reduce((total, file) => total + bytesOf(file.content), 0);
}
