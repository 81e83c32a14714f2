// What an attached file is: read from its first bytes where the format has a signature (magic numbers), and
// only otherwise from its name, for formats that have none (plain text, CSV). A name never gives a type whose
// format has a signature: a file called report.pdf that does not start as a PDF is not served as one. Pure.

/** Bytes of the file's head the signatures need: enough for every check below. */
export const SNIFF_BYTES = 64;

const ascii = (head: Uint8Array, at: number, text: string): boolean =>
  head.length >= at + text.length &&
  [...text].every((character, index) => head[at + index] === character.charCodeAt(0));
const bytesAt = (head: Uint8Array, at: number, bytes: readonly number[]): boolean =>
  head.length >= at + bytes.length && bytes.every((byte, index) => head[at + index] === byte);

/** Office and OpenDocument files are zip archives: their extension tells which. */
const ZIP_KINDS: Record<string, string> = {
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  odt: "application/vnd.oasis.opendocument.text",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  odp: "application/vnd.oasis.opendocument.presentation",
  epub: "application/epub+zip",
};

/** Formats without a signature, by extension: text a browser shows but never runs. */
const BY_NAME: Record<string, string> = {
  txt: "text/plain",
  text: "text/plain",
  log: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  json: "application/json",
  ics: "text/calendar",
  vtt: "text/vtt",
  srt: "text/plain",
};

const extensionOf = (name: string): string => /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? "";

/** ISO base media (MP4, MOV, M4A): `ftyp` at byte 4, the brand after it says audio or video. */
function isoMedia(head: Uint8Array): string | null {
  if (!ascii(head, 4, "ftyp")) return null;
  if (ascii(head, 8, "M4A ") || ascii(head, 8, "M4B ")) return "audio/mp4";
  if (ascii(head, 8, "qt  ")) return "video/quicktime";
  return "video/mp4";
}

/** The type from the file's first bytes, or null when no known signature matches. */
function bySignature(head: Uint8Array, extension: string): string | null {
  if (ascii(head, 0, "%PDF-")) return "application/pdf";
  if (bytesAt(head, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (bytesAt(head, 0, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (ascii(head, 0, "GIF87a") || ascii(head, 0, "GIF89a")) return "image/gif";
  if (ascii(head, 0, "RIFF") && ascii(head, 8, "WEBP")) return "image/webp";
  if (ascii(head, 0, "RIFF") && ascii(head, 8, "WAVE")) return "audio/wav";
  if (ascii(head, 0, "RIFF") && ascii(head, 8, "AVI ")) return "video/x-msvideo";
  if (ascii(head, 0, "PK") && (bytesAt(head, 2, [3, 4]) || bytesAt(head, 2, [5, 6])))
    return ZIP_KINDS[extension] ?? "application/zip";
  if (
    ascii(head, 0, "ID3") ||
    (head.length >= 2 && head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0 && ((head[1] ?? 0) & 0x06) !== 0)
  )
    return "audio/mpeg";
  if (ascii(head, 0, "OggS")) return extension === "ogv" ? "video/ogg" : "audio/ogg";
  if (ascii(head, 0, "fLaC")) return "audio/flac";
  if (bytesAt(head, 0, [0x1a, 0x45, 0xdf, 0xa3])) return extension === "mkv" ? "video/x-matroska" : "video/webm";
  const media = isoMedia(head);
  if (media) return media;
  if (bytesAt(head, 0, [0x1f, 0x8b])) return "application/gzip";
  if (ascii(head, 0, "7z") && bytesAt(head, 2, [0xbc, 0xaf, 0x27, 0x1c])) return "application/x-7z-compressed";
  if (ascii(head, 0, "Rar!")) return "application/vnd.rar";
  if (bytesAt(head, 0, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return "application/x-ole-storage";
  if (ascii(head, 0, "{\\rtf")) return "application/rtf";
  return null;
}

/**
 * The file's type: its signature's, else (for signature-less text formats only) its extension's, else
 * `application/octet-stream`. HTML, SVG, XML and scripts are never named: they stay octet-stream.
 */
export function fileTypeOf(head: Uint8Array, name: string): string {
  const extension = extensionOf(name);
  return bySignature(head, extension) ?? BY_NAME[extension] ?? "application/octet-stream";
}

/** How the bytes are served: a type a browser shows without running anything may be inline; all else is a download. */
export function servingOf(mimeType: string): { contentType: string; disposition: "inline" | "attachment" } {
  if (
    mimeType === "application/pdf" ||
    /^(audio|video)\//.test(mimeType) ||
    /^image\/(png|jpeg|gif|webp)$/.test(mimeType)
  ) {
    return { contentType: mimeType, disposition: "inline" };
  }
  const known = mimeType !== "application/octet-stream" && !/(html|xml|svg|javascript|ecmascript)/.test(mimeType);
  return { contentType: known ? mimeType : "application/octet-stream", disposition: "attachment" };
}
