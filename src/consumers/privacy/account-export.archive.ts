import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { finished, pipeline } from 'node:stream/promises';
import { createGzip, type Gzip } from 'node:zlib';

// A tar archive (POSIX ustar, as `tar` and every archive tool read it) written as a stream through
// gzip to a file: entry after entry, each a 512-byte header that states its size, then its bytes
// padded to 512. An entry's size must be known before its bytes, so a table is first written to a
// file of its own, then copied in; memory holds one chunk at a time.

const BLOCK = 512;
/** The largest size the header's 11 octal digits hold (8 GiB - 1); past it, GNU's base-256 form. */
const MAX_OCTAL_SIZE = 0o77777777777;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** The size field: 11 octal digits and a NUL, or, past 8 GiB, a binary number marked by its first bit (GNU tar, bsdtar and Python read both). */
function sizeField(size: number): Buffer {
  if (size <= MAX_OCTAL_SIZE) return Buffer.from(octal(size, 12), 'ascii');
  const field = Buffer.alloc(12);
  let rest = BigInt(size);
  for (let i = 11; i > 0; i -= 1) {
    field[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  field[0] = 0x80;
  return field;
}

/** The 512-byte ustar header of a regular file of `size` bytes named `name` (at most 100 bytes, ASCII). */
export function tarHeader(name: string, size: number, modified: Date): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  if (nameBytes.length > 100) throw new Error(`tar entry name too long: ${name}`);
  const header = Buffer.alloc(BLOCK);
  nameBytes.copy(header, 0);
  header.write(octal(0o600, 8), 100, 'ascii'); // mode: the owner's alone
  header.write(octal(0, 8), 108, 'ascii'); // uid
  header.write(octal(0, 8), 116, 'ascii'); // gid
  sizeField(size).copy(header, 124);
  header.write(octal(Math.floor(modified.getTime() / 1000), 12), 136, 'ascii');
  header.write('        ', 148, 'ascii'); // the checksum's own field counts as spaces while summing
  header.write('0', 156, 'ascii'); // a regular file
  header.write('ustar\0', 257, 'ascii');
  header.write('00', 263, 'ascii');
  header.write('dakiya', 265, 'ascii'); // owner's name
  header.write('dakiya', 297, 'ascii'); // group's name
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return header;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** A .tar.gz being written to `file`: entries added one at a time, then closed. */
export class TarGzWriter {
  private readonly gzip: Gzip;
  private readonly done: Promise<void>;
  private failure: unknown;

  constructor(
    readonly file: string,
    private readonly modified: Date,
  ) {
    this.gzip = createGzip();
    // On an error of either stream both are destroyed, so a write waiting for room is let go.
    this.done = pipeline(this.gzip, createWriteStream(file, { mode: 0o600 }));
    this.done.catch((error: unknown) => {
      this.failure ??= error;
    });
  }

  private async write(chunk: Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.gzip.write(chunk)) await once(this.gzip, 'drain');
  }

  /** An entry holding `bytes`. */
  async addBytes(name: string, bytes: Buffer): Promise<void> {
    await this.write(tarHeader(name, bytes.length, this.modified));
    await this.write(bytes);
    await this.write(padding(bytes.length));
  }

  /** An entry holding the file at `source`, copied chunk by chunk; `onChunk` after each (a long copy's sign of life). */
  async addFile(name: string, source: string, onChunk?: () => Promise<void>): Promise<void> {
    const { size } = await stat(source);
    await this.write(tarHeader(name, size, this.modified));
    let copied = 0;
    for await (const chunk of createReadStream(source)) {
      copied += (chunk as Buffer).length;
      await this.write(chunk as Buffer);
      await onChunk?.();
    }
    if (copied !== size) throw new Error(`${source} changed while it was archived`);
    await this.write(padding(size));
  }

  /** The end of the archive (two empty blocks), flushed to the file; its size in bytes. */
  async close(): Promise<number> {
    await this.write(Buffer.alloc(2 * BLOCK));
    this.gzip.end();
    await this.done;
    return (await stat(this.file)).size;
  }

  /** Stops writing (the export stopped or failed); the caller removes the file. */
  async abort(): Promise<void> {
    this.gzip.destroy();
    await this.done.catch(() => undefined);
  }
}

/** A file written line by line with the stream's backpressure kept: a table's JSON lines or CSV. */
export class LineFile {
  private readonly out: WriteStream;
  private failure: unknown;

  constructor(readonly file: string) {
    this.out = createWriteStream(file, { mode: 0o600 });
    // Heard here (a full disk), so it fails the export rather than the process; told at the next write.
    this.out.on('error', (error) => {
      this.failure ??= error;
    });
  }

  async write(text: string): Promise<void> {
    if (this.failure) throw this.failure;
    if (text !== '' && !this.out.write(text)) await once(this.out, 'drain');
  }

  async close(): Promise<void> {
    this.out.end();
    await finished(this.out);
  }

  destroy(): void {
    this.out.destroy();
  }
}
