import {
  appendFileSync,
  closeSync,
  fstatSync,
  openSync,
  readFileSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOpened } from '../../src/util/read-opened.js';
import { tempDir } from '../support/tmp.js';

/** Opens `path`, fstats it, lets `between` change the file, then reads it with the size seen. */
function readAfter(path: string, between: () => void = () => undefined): Buffer {
  const fd = openSync(path, 'r');
  try {
    const { size } = fstatSync(fd);
    between();
    return readOpened(fd, size);
  } finally {
    closeSync(fd);
  }
}

describe('readOpened', () => {
  it('reads what readFileSync reads, for small and large files and an empty one', () => {
    const dir = tempDir();
    for (const [name, bytes] of [
      ['small', Buffer.from('kind: Myapp\n')],
      ['large', Buffer.alloc(300_000, 'abc\n')],
      ['empty', Buffer.alloc(0)],
    ] as const) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      expect(readAfter(path).equals(readFileSync(path))).toBe(true);
    }
  });

  it('reads a file that grew since fstat to the size seen, and one that shrank to its end', () => {
    const dir = tempDir();
    const grew = join(dir, 'grew');
    writeFileSync(grew, 'abcdef');
    expect(readAfter(grew, () => appendFileSync(grew, 'ghi')).toString()).toBe('abcdef');
    const shrank = join(dir, 'shrank');
    writeFileSync(shrank, 'abcdef');
    expect(readAfter(shrank, () => truncateSync(shrank, 2)).toString()).toBe('ab');
  });
});
