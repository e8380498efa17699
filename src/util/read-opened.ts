import { closeSync, constants, fstatSync, openSync, readFileSync, readSync } from 'node:fs';

/**
 * The bytes of a regular file the caller opened and just checked with `fstat` (`size` is what it saw): read to that
 * size, as `readFileSync(fd)` reads, without the second `fstat` it makes (one system call in four per file: 0.2 s
 * of a `check` that reads 200,000 files, docs/benchmarks.md). A file that grew since is read to the size seen, one
 * that shrank to its end; a size of 0 (a file system that reports none) is read to the end by `readFileSync`.
 */
export function readOpened(fd: number, size: number): Buffer {
  if (size === 0) return readFileSync(fd);
  const bytes = Buffer.allocUnsafe(size);
  let read = 0;
  while (read < size) {
    const n = readSync(fd, bytes, read, size - read, read);
    if (n === 0) break;
    read += n;
  }
  return read === size ? bytes : bytes.subarray(0, read);
}

/** What {@link readRegularFile} found. */
export type Opened =
  { readonly bytes: Buffer } | { readonly notRegular: true } | { readonly tooLarge: number };

/**
 * The bytes of a file that is still a regular file when opened (it could have been swapped for a FIFO or a link
 * since it was listed): opened without blocking or following a link, checked with `fstat`, then read; not read when
 * it is over `maxBytes`. Throws what opening or reading throws (`ELOOP`: a link).
 */
export function readRegularFile(path: string, maxBytes: number): Opened {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { notRegular: true };
    if (st.size > maxBytes) return { tooLarge: st.size };
    return { bytes: readOpened(fd, st.size) };
  } finally {
    closeSync(fd);
  }
}
