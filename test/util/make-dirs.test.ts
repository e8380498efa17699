import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDirs } from '../../src/util/make-dirs.js';
import { tempDir } from '../support/tmp.js';

describe('makeDirs', () => {
  it('makes the missing directories on the way and returns the first it made', () => {
    const root = tempDir();
    expect(makeDirs(join(root, 'a', 'b', 'c'))).toBe(join(root, 'a'));
    expect(existsSync(join(root, 'a', 'b', 'c'))).toBe(true);
    expect(makeDirs(join(root, 'a', 'b'))).toBeUndefined();
  });

  it('throws where a file is in the way', () => {
    const root = tempDir();
    writeFileSync(join(root, 'f'), 'x');
    expect(() => makeDirs(join(root, 'f', 'd'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
    expect(() => makeDirs(join(root, 'f'))).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    mkdirSync(join(root, 'd'));
    expect(() => makeDirs(join(root, 'd', 'f', 'x'))).not.toThrow();
  });

  it('reads a path with `..` after a link as every other step does, by its words (`l/../d` is `d`)', () => {
    const root = tempDir();
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    mkdirSync(join(root, 'd'));
    symlinkSync(join(root, 'a', 'b'), join(root, 'l')); // the kernel reads l/../d as a/d, which is not there
    expect(makeDirs(`${root}/l/../d`)).toBeUndefined();
    expect(existsSync(join(root, 'a', 'd'))).toBe(false);
  });

  it.skipIf(!existsSync('/proc/self'))(
    'throws where the file system makes no directory though its parent is there (Node.js retries forever)',
    () => {
      expect(() => makeDirs('/proc/specforge-x/y')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    },
  );
});
