import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isWithin, isWithinReal, overlap, realPath } from '../../src/util/real-path.js';
import { tempDir } from '../support/tmp.js';

describe('where a path leads', () => {
  it('resolves the links of its existing part, a link whose target is missing too, and keeps the missing rest', () => {
    const root = realpathSync(tempDir());
    const dist = join(root, 'dist');
    mkdirSync(dist);
    symlinkSync(dist, join(root, 'to-dist'));
    symlinkSync(join(dist, 'cache'), join(root, 'dangling'));
    symlinkSync(join(root, 'dangling'), join(root, 'to-dangling'));
    expect(realPath(join(root, 'to-dist', 'a', 'b'))).toBe(join(dist, 'a', 'b'));
    expect(realPath(join(root, 'dangling'))).toBe(join(dist, 'cache'));
    expect(realPath(join(root, 'to-dangling', 'x'))).toBe(join(dist, 'cache', 'x'));
    expect(realPath(join(root, 'missing', '..', 'dist'))).toBe(dist);
    expect(isWithin(join(root, 'to-dangling', 'x'), dist)).toBe(true);
    expect(isWithin(join(root, 'dist-b'), dist)).toBe(false);
  });

  it('gives up on a loop of links without failing', () => {
    const root = realpathSync(tempDir());
    symlinkSync(join(root, 'b'), join(root, 'a'));
    symlinkSync(join(root, 'a'), join(root, 'b'));
    expect(realPath(join(root, 'a', 'x'))).toMatch(/\/x$/);
  });

  it('counts everything as within the root of the file system, and a place as within itself', () => {
    expect(isWithinReal('/a/b', '/')).toBe(true);
    expect(isWithinReal('/', '/')).toBe(true);
    expect(isWithinReal('/a', '/a')).toBe(true);
    expect(isWithinReal('/ab', '/a')).toBe(false);
    expect(realPath('//')).toBe('/');
    expect(overlap('/', '/tmp')).toBe(true);
    expect(overlap('/tmp/a', '/tmp/b')).toBe(false);
  });
});
