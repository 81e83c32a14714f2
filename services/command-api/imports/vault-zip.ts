// The zip form of POST /imports/obsidian: a spooled archive's entries as the vault's files, whether the zip is an
// export of this service or an Obsidian vault zipped by hand. Read with yauzl from the file, entry by entry, so
// memory holds the central directory's listing and the notes and images read, never the archive; any other file
// is inflated only when a note links it, streamed from the archive into the blob store. Everything is
// judged from the central directory before any entry is inflated: a name that is absolute or climbs out with
// `..`, a symbolic link, an encrypted entry or one compressed otherwise than stored or deflated refuses the
// archive (400), as does an entry that expands more than IMPORT_ZIP_MAX_RATIO times its compressed size (a zip
// bomb); notes and images expanding to more than IMPORT_ZIP_MAX_UNCOMPRESSED_BYTES in all refuse it with 413.
// yauzl also checks, while inflating, that no entry yields more bytes than the directory declared.
import type { FileHandle } from "node:fs/promises";
import { Readable } from "node:stream";
import yauzl, { type Entry, type ZipFile } from "yauzl";
import { AppError } from "../../../shared/errors/app-error.ts";
import { IMPORT_MAX_FILES, readWhole, type FileSource, type VaultFile } from "../../../shared/imports/vault-files.ts";

export interface VaultZipLimits {
  /** What the notes and images of one archive may expand to in all. */
  readonly maxUncompressedBytes: number;
  /** How many times its compressed size an entry may expand to, once past RATIO_FLOOR_BYTES. */
  readonly maxRatio: number;
}

/** The zip form's settings (IMPORT_ZIP_*): the limits, the largest zip taken, and where it is spooled. */
export interface VaultZipSettings extends VaultZipLimits {
  readonly maxZipBytes: number;
  readonly spoolDirectory: string;
}

/** Entries a central directory may list: a vault's files with room for the hidden ones (`.obsidian/`) beside them. */
const ZIP_MAX_ENTRIES = 4 * IMPORT_MAX_FILES;
/** Entries smaller than this are not held to the ratio: a short note of one repeated line compresses far, harmlessly. */
const RATIO_FLOOR_BYTES = 1024 * 1024;

const UNIX_HOSTS = new Set([3, 19]); // Unix, macOS: the mode is in the external attributes' high 16 bits
const FILE_TYPE_MASK = 0o170000;
const SYMBOLIC_LINK = 0o120000;
const STORED = 0;
const DEFLATED = 8;

interface ListedEntry {
  readonly entry: Entry;
  readonly path: string;
}

/**
 * yauzl's reader over the spooled file, which stays the caller's to close (yauzl's own file reader closes the
 * descriptor it is given). Reads are positional, so entries can be read in any order.
 */
class SpoolReader extends yauzl.RandomAccessReader {
  constructor(private readonly file: FileHandle) {
    super();
  }

  // Positional reads of the handle, not fs's read streams: those close their descriptor when destroyed.
  override _readStreamForRange(start: number, end: number): Readable {
    let position = start;
    const stream: Readable = new Readable({
      read: (size) => {
        const length = Math.min(size, end - position);
        if (length <= 0) return void stream.push(null);
        this.file.read(Buffer.allocUnsafe(length), 0, length, position).then(
          ({ bytesRead, buffer }) => {
            if (bytesRead === 0) return void stream.destroy(new Error("the archive ends early"));
            position += bytesRead;
            stream.push(buffer.subarray(0, bytesRead));
          },
          (error: unknown) =>
            stream.destroy(error instanceof Error ? error : new Error("the archive could not be read")),
        );
      },
    });
    return stream;
  }

  override read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: (error: Error | null) => void,
  ): void {
    this.file.read(buffer, offset, length, position).then(
      ({ bytesRead }) => callback(bytesRead === length ? null : new Error("the archive ends early")),
      (error: unknown) => callback(error instanceof Error ? error : new Error("the archive could not be read")),
    );
  }
}

const refused = (message: string): AppError => new AppError("validation_failed", `body: ${message}`);

/** Why an entry refuses the whole archive, or null. */
function entryProblem(entry: Entry, path: string, limits: VaultZipLimits): string | null {
  const label = JSON.stringify(path.slice(0, 200));
  const invalid = yauzl.validateFileName(path);
  if (invalid !== null) {
    const what = invalid.startsWith("absolute")
      ? "an absolute path"
      : "a path that climbs out of the archive with '..'";
    return `entry ${label} has ${what}; a vault's paths are relative`;
  }
  if (
    UNIX_HOSTS.has(entry.versionMadeBy >> 8) &&
    ((entry.externalFileAttributes >>> 16) & FILE_TYPE_MASK) === SYMBOLIC_LINK
  ) {
    return `entry ${label} is a symbolic link; links are not followed`;
  }
  if (entry.isEncrypted()) return `entry ${label} is encrypted`;
  if (entry.compressionMethod !== STORED && entry.compressionMethod !== DEFLATED)
    return `entry ${label} is compressed with method ${entry.compressionMethod}; only stored and deflated entries are read`;
  if (entry.uncompressedSize > RATIO_FLOOR_BYTES && entry.uncompressedSize > limits.maxRatio * entry.compressedSize) {
    const ratio =
      entry.compressedSize === 0 ? "without end" : `${Math.round(entry.uncompressedSize / entry.compressedSize)} times`;
    return `entry ${label} expands ${ratio} its compressed size, more than ${limits.maxRatio} (IMPORT_ZIP_MAX_RATIO): refused as a zip bomb`;
  }
  return null;
}

/** Every entry of the central directory, each checked; the whole listing is read before any content. */
async function listEntries(zip: ZipFile, limits: VaultZipLimits): Promise<ListedEntry[]> {
  const listed: ListedEntry[] = [];
  for await (const entry of zip.eachEntry()) {
    // Names are decoded here (not by yauzl) so that a bad one is this request's 400, named, not a bare error.
    const path = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false);
    const problem = entryProblem(entry, path, limits);
    if (problem) throw refused(problem);
    listed.push({ entry, path });
  }
  return listed;
}

/** What Obsidian itself does not show (`.obsidian/`, `.trash/`, `.DS_Store`) and what macOS adds to its zips. */
const hidden = (path: string): boolean =>
  path.split("/").some((segment) => segment.startsWith(".")) || path.startsWith("__MACOSX/");

/**
 * The vault's root inside the archive: a vault zipped from outside its folder has every file under one directory,
 * the one holding `.obsidian/`; an export (or a vault zipped from inside) has its files at the top.
 */
function vaultRoot(paths: readonly string[]): string {
  if (paths.some((path) => path.startsWith(".obsidian/"))) return "";
  const tops = new Set(paths.filter((path) => !path.startsWith("__MACOSX/")).map((path) => path.split("/")[0] ?? ""));
  const [top] = tops;
  if (tops.size !== 1 || top === undefined) return "";
  return paths.some((path) => path.startsWith(`${top}/.obsidian/`)) ? `${top}/` : "";
}

async function readEntry(zip: ZipFile, entry: Entry, label: string): Promise<Uint8Array> {
  try {
    const stream = await zip.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    return Buffer.concat(chunks);
  } catch {
    throw refused(`entry ${label} could not be read (a damaged archive, or more bytes than its directory declares)`);
  }
}

/** An entry read when asked, as it inflates: a linked attachment's bytes. */
function entrySource(zip: ZipFile, entry: Entry, label: string): FileSource {
  return {
    size: entry.uncompressedSize,
    open: async () => {
      try {
        return await zip.openReadStreamPromise(entry);
      } catch {
        throw refused(`entry ${label} could not be read (a damaged archive)`);
      }
    },
  };
}

/** An opened archive's files; the archive stays open for their sources until closed. */
export interface OpenedVaultZip {
  readonly files: VaultFile[];
  close(): void;
}

/**
 * The archive's files as POST /imports/obsidian's JSON form gives them: notes and images read, any other file a
 * source to read when a note links it. The caller closes it once the import is done (and the spool after it).
 */
export async function readVaultZip(file: FileHandle, size: number, limits: VaultZipLimits): Promise<OpenedVaultZip> {
  const zip = await yauzl
    .fromRandomAccessReaderPromise(new SpoolReader(file), size, {
      lazyEntries: true,
      decodeStrings: false,
      validateEntrySizes: true,
      autoClose: false,
      strictFileNames: false,
    })
    .catch(() => {
      throw refused("not a zip archive (its central directory could not be read)");
    });
  try {
    if (zip.entryCount > ZIP_MAX_ENTRIES)
      throw refused(`the archive lists ${zip.entryCount} entries; an import reads at most ${ZIP_MAX_ENTRIES}`);
    const listed = await listEntries(zip, limits).catch((error: unknown) => {
      throw error instanceof AppError ? error : refused("its central directory could not be read");
    });
    const root = vaultRoot(listed.map(({ path }) => path));
    const files = listed.filter(
      ({ path }) => path.startsWith(root) && !path.endsWith("/") && !hidden(path.slice(root.length)),
    );
    if (files.length === 0) throw refused("the archive holds no files");
    if (files.length > IMPORT_MAX_FILES)
      throw refused(`the archive holds ${files.length} files; an import takes at most ${IMPORT_MAX_FILES}`);
    const read = files.filter(({ path }) => readWhole(path));
    const total = read.reduce((sum, { entry }) => sum + entry.uncompressedSize, 0);
    if (total > limits.maxUncompressedBytes) {
      throw new AppError(
        "payload_too_large",
        `body: the archive's notes and images expand to ${total} bytes; an import reads at most ${limits.maxUncompressedBytes} (IMPORT_ZIP_MAX_UNCOMPRESSED_BYTES)`,
      );
    }
    const vault: VaultFile[] = [];
    for (const { entry, path } of files) {
      const label = JSON.stringify(path.slice(0, 200));
      vault.push({
        path: path.slice(root.length),
        content: readWhole(path) ? await readEntry(zip, entry, label) : entrySource(zip, entry, label),
      });
    }
    return { files: vault, close: () => zip.close() };
  } catch (error) {
    zip.close();
    throw error;
  }
}
