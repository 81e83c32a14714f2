// A zip archive written as a stream with fflate: entries are added one after the other and the archive's bytes
// flow out as they are made. Every add waits while the reader is behind (the output's buffer is full), so memory
// holds at most one buffer of output plus the entry being written, whatever the archive's size. Nothing is
// compressed here: notes come deflated from the worker pool, images are stored as they are.
import { PassThrough, type Readable } from "node:stream";
import { Zip, ZipPassThrough, type ZipInputFile } from "fflate";
import type { DeflatedEntry } from "../../../shared/workers/pool-tasks.ts";

/** APPNOTE.txt 4.4.5: the entry's data is a raw deflate stream. */
const DEFLATE = 8;

export class ZipStream {
  readonly output = new PassThrough();
  private readonly zip = new Zip((error, chunk, final) => {
    if (error) {
      this.output.destroy(error);
      return;
    }
    if (this.output.destroyed) return;
    this.output.write(chunk);
    if (final) this.output.end();
  });

  /** An entry deflated already (by the worker pool): its bytes are copied into the archive as they are. */
  async addDeflated(name: string, entry: DeflatedEntry, modifiedAt: Date): Promise<void> {
    const file: ZipInputFile = {
      filename: name,
      size: entry.size,
      crc: entry.crc,
      compression: DEFLATE,
      mtime: modifiedAt,
      terminate: () => undefined,
    };
    this.zip.add(file);
    file.ondata?.(null, entry.deflated, true);
    await this.drained();
  }

  /** An entry stored uncompressed. */
  async addStored(name: string, bytes: Uint8Array, modifiedAt: Date): Promise<void> {
    const entry = new ZipPassThrough(name);
    entry.mtime = modifiedAt;
    this.zip.add(entry);
    entry.push(bytes, true);
    await this.drained();
  }

  /** An entry copied as stored (images are compressed already), read from `bytes` as they come. */
  async addStream(name: string, bytes: Readable, modifiedAt: Date): Promise<void> {
    const entry = new ZipPassThrough(name);
    entry.mtime = modifiedAt;
    this.zip.add(entry);
    try {
      for await (const chunk of bytes) {
        entry.push(chunk instanceof Uint8Array ? chunk : Buffer.from(String(chunk)));
        await this.drained();
      }
    } finally {
      bytes.destroy();
    }
    entry.push(new Uint8Array(0), true);
    await this.drained();
  }

  end(): void {
    this.zip.end();
  }

  /** Resolves when the reader has caught up; throws when it went away (the client closed the connection). */
  private async drained(): Promise<void> {
    if (this.output.writableNeedDrain) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          this.output.off("drain", done).off("close", done);
          resolve();
        };
        this.output.once("drain", done).once("close", done);
      });
    }
    if (this.output.destroyed) throw new Error("the export's reader went away");
  }
}
