/**
 * A small deterministic tar (ustar, with a PAX record only for a path or link over ustar's bounds) writer: every byte
 * of the output is a function of the entries given, in the order given. Owner is numeric 0 with no user or group
 * name, the mode and mtime are what the caller passes, nothing is read from the writing process (umask, clock, user).
 * Writes synchronously to a file and hashes what it writes (sha256), so the archive's digest is known when it ends.
 */
import { createHash, type Hash } from 'node:crypto';
import { closeSync, openSync, readSync, writeSync } from 'node:fs';

const BLOCK = 512;
const CHUNK = 1 << 20;

/** What a finished tar is: its sha256 digest (`sha256:<hex>`) and its size in bytes. */
export interface TarResult {
  readonly digest: string;
  readonly size: number;
}

/** One entry's header fields. `mtime` is seconds since the epoch. */
interface Header {
  readonly path: string;
  readonly type: 'file' | 'directory' | 'symlink' | 'pax';
  readonly mode: number;
  readonly mtime: number;
  readonly size: number;
  readonly linkname?: string;
}

const TYPEFLAG = { file: '0', directory: '5', symlink: '2', pax: 'x' } as const;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

/** Splits a path into ustar's prefix (≤155 bytes) and name (≤100 bytes) at a `/`, or undefined when it cannot. */
function splitUstar(path: string): [string, string] | undefined {
  if (Buffer.byteLength(path) <= 100) return ['', path];
  for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100 && name !== '')
      return [prefix, name];
  }
  return undefined;
}

function encodeHeader(h: Header, prefix: string, name: string): Buffer {
  const b = Buffer.alloc(BLOCK);
  b.write(name, 0, 100, 'utf8');
  b.write(octal(h.mode, 8), 100, 'ascii');
  b.write(octal(0, 8), 108, 'ascii');
  b.write(octal(0, 8), 116, 'ascii');
  b.write(octal(h.size, 12), 124, 'ascii');
  b.write(octal(h.mtime, 12), 136, 'ascii');
  b.write(' '.repeat(8), 148, 'ascii');
  b.write(TYPEFLAG[h.type], 156, 'ascii');
  b.write(h.linkname ?? '', 157, 100, 'utf8');
  b.write('ustar\0' + '00', 257, 'ascii');
  b.write(octal(0, 8), 329, 'ascii');
  b.write(octal(0, 8), 337, 'ascii');
  b.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of b) sum += byte;
  b.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'ascii');
  return b;
}

/** One PAX record, `<length> <key>=<value>\n`, where the length counts itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length += 1;
  return `${length}${body}`;
}

/** Writes one tar archive into a file. Paths are relative (`usr/bin/node`); a directory's path has no trailing `/`. */
export class TarWriter {
  private readonly fd: number;
  private readonly hash: Hash = createHash('sha256');
  private written = 0;

  constructor(file: string) {
    this.fd = openSync(file, 'w', 0o644);
  }

  directory(path: string, mode: number, mtime: number): void {
    this.header({ path: `${path}/`, type: 'directory', mode, mtime, size: 0 });
  }

  symlink(path: string, target: string, mtime: number): void {
    this.header({ path, type: 'symlink', mode: 0o777, mtime, size: 0, linkname: target });
  }

  /** A regular file whose content is `content`, or the bytes of the file at `content.file` (`size` bytes). */
  file(path: string, mode: number, mtime: number, content: Buffer | { file: string; size: number }): void {
    const size = Buffer.isBuffer(content) ? content.length : content.size;
    this.header({ path, type: 'file', mode, mtime, size });
    if (Buffer.isBuffer(content)) this.write(content);
    else this.copy(content.file, size);
    this.pad(size);
  }

  /** Ends the archive (two zero blocks), closes the file, and says its digest and size. */
  finish(): TarResult {
    this.write(Buffer.alloc(2 * BLOCK));
    closeSync(this.fd);
    return { digest: `sha256:${this.hash.digest('hex')}`, size: this.written };
  }

  private header(h: Header): void {
    const split = splitUstar(h.path);
    const longLink = h.linkname !== undefined && Buffer.byteLength(h.linkname) > 100;
    if (split === undefined || longLink) {
      const records =
        (split === undefined ? paxRecord('path', h.path) : '') +
        (longLink ? paxRecord('linkpath', h.linkname ?? '') : '');
      const body = Buffer.from(records, 'utf8');
      this.write(
        encodeHeader({ ...h, type: 'pax', mode: 0o644, size: body.length, linkname: '' }, '', 'PaxHeader'),
      );
      this.write(body);
      this.pad(body.length);
    }
    const [prefix, name] = split ?? ['', h.path.slice(0, 100)];
    this.write(encodeHeader(h, prefix, name));
  }

  private copy(file: string, size: number): void {
    const fd = openSync(file, 'r');
    try {
      const buf = Buffer.alloc(Math.min(CHUNK, Math.max(size, 1)));
      let done = 0;
      while (done < size) {
        const n = readSync(fd, buf, 0, Math.min(buf.length, size - done), done);
        if (n === 0) throw new Error(`${file} changed while it was archived`);
        this.write(buf.subarray(0, n));
        done += n;
      }
    } finally {
      closeSync(fd);
    }
  }

  private pad(size: number): void {
    const rest = size % BLOCK;
    if (rest !== 0) this.write(Buffer.alloc(BLOCK - rest));
  }

  private write(b: Buffer): void {
    let off = 0;
    while (off < b.length) off += writeSync(this.fd, b, off, b.length - off);
    this.hash.update(b);
    this.written += b.length;
  }
}
