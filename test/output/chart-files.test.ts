import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stamped, tempName, unedited, writeChartFiles } from '../../src/output/chart-files.js';
import { tempDir } from '../support/tmp.js';
import { UsageError } from '../../src/util/usage-error.js';

/** File-system calls the tests make fail: a hook run before each rename and each write (none by default). */
const faults = vi.hoisted(() => ({
  rename: undefined as ((from: string, to: string) => void) | undefined,
  write: undefined as (() => void) | undefined,
}));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return {
    ...fs,
    renameSync: (from: string, to: string) => {
      faults.rename?.(from, to);
      fs.renameSync(from, to);
    },
    writeSync: (...args: Parameters<typeof fs.writeSync>) => {
      faults.write?.();
      return fs.writeSync(...args);
    },
  };
});
afterEach(() => {
  faults.rename = undefined;
  faults.write = undefined;
});

/** A file-system failure with an errno code, as node:fs throws it. */
function fsError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: failed`), { code });
}

const spec = (n: number) =>
  `apiVersion: app.example.com/v1\nkind: AppService\nmetadata: {name: web}\nspec: {size: ${n}}\n`;
const files = (n = 1) => new Map([['appservice_app.example.com_shop_web.yaml', spec(n)]]);

function chartWith(): { chart: string; file: string } {
  const chart = join(tempDir(), 'team-a');
  writeChartFiles(chart, files(1));
  return { chart, file: join(chart, 'appservice_app.example.com_shop_web.yaml') };
}

describe('writeChartFiles', () => {
  it('writes each file with a first line recording what it wrote', () => {
    const { file } = chartWith();
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^# specforge-import sha256:[0-9a-f]{64} /);
    expect(text.endsWith(spec(1))).toBe(true);
    expect(unedited(text)).toBe(true);
  });

  it.skipIf(!existsSync('/proc/self'))(
    'fails in a sentence where the file system makes no directory (/proc), where a recursive mkdir retried forever',
    () => {
      expect(() => writeChartFiles('/proc/specforge-x/chart', files(1))).toThrow(
        new UsageError(
          'cannot write into /proc/specforge-x/chart: read-only file system (/proc/specforge-x); nothing was imported',
          false,
        ),
      );
    },
  );

  it('replaces a file nobody changed since it wrote it, and leaves an identical one alone', () => {
    const { chart, file } = chartWith();
    const before = lstatSync(file).ino;
    expect(writeChartFiles(chart, files(1)).unchanged).toEqual([file]);
    expect(lstatSync(file).ino).toBe(before);
    expect(writeChartFiles(chart, files(2))).toMatchObject({ refused: [], updated: [file] });
    expect(readFileSync(file, 'utf8').endsWith(spec(2))).toBe(true);
  });

  it.each([
    [
      'edited by the team',
      (f: string) => writeFileSync(f, readFileSync(f, 'utf8').replace('size: 1', 'size: 9')),
      /edited since import wrote it/,
    ],
    ['written by someone else', (f: string) => writeFileSync(f, spec(9)), /import did not write it/],
  ])('refuses to replace a file %s, writing nothing, unless forced', (_what, change, why) => {
    const { chart, file } = chartWith();
    change(file);
    const mine = readFileSync(file, 'utf8');
    const other = join(chart, 'other.yaml');
    const more = new Map([...files(2), ['other.yaml', 'x: 1\n']]);
    const refused = writeChartFiles(chart, more);
    expect(refused.refused).toEqual([{ file, why: expect.stringMatching(why) }]);
    expect(readFileSync(file, 'utf8')).toBe(mine);
    expect(existsSync(other)).toBe(false);
    const forced = writeChartFiles(chart, more, { force: true });
    expect(forced.forced).toEqual([{ file, why: expect.stringMatching(why) }]);
    expect(readFileSync(file, 'utf8')).toBe(stamped(spec(2)));
    expect(existsSync(other)).toBe(true);
  });

  it('never writes through a link at the target: refused, and with --force the link itself is replaced', () => {
    const root = tempDir();
    const outside = join(root, 'outside.txt');
    writeFileSync(outside, 'precious');
    const chart = join(root, 'team-a');
    mkdirSync(chart);
    const target = join(chart, 'appservice_app.example.com_shop_web.yaml');
    symlinkSync(outside, target);
    expect(writeChartFiles(chart, files()).refused).toEqual([
      { file: target, why: expect.stringMatching(/symbolic link/) },
    ]);
    expect(readlinkSync(target)).toBe(outside);
    writeChartFiles(chart, files(), { force: true });
    expect(lstatSync(target).isFile()).toBe(true);
    expect(readFileSync(outside, 'utf8')).toBe('precious');
  });

  it('never opens a temporary name already taken (a planted link): it takes the next', () => {
    const root = tempDir();
    const outside = join(root, 'outside.txt');
    writeFileSync(outside, 'precious');
    const chart = join(root, 'team-a');
    mkdirSync(chart);
    const name = 'appservice_app.example.com_shop_web.yaml';
    symlinkSync(outside, join(chart, tempName(name, 0)));
    writeChartFiles(chart, files());
    expect(readFileSync(outside, 'utf8')).toBe('precious');
    expect(readFileSync(join(chart, name), 'utf8')).toBe(stamped(spec(1)));
    expect(readdirSync(chart).filter((f) => f.includes('specforge-tmp'))).toEqual([tempName(name, 0)]);
  });

  it('refuses a directory in the way even when forced', () => {
    const chart = join(tempDir(), 'team-a');
    mkdirSync(join(chart, 'appservice_app.example.com_shop_web.yaml'), { recursive: true });
    expect(writeChartFiles(chart, files(), { force: true }).refused).toHaveLength(1);
  });

  describe('all or nothing', () => {
    /** A chart holding `a.yaml` as import wrote it, and what import writes next: a new `a.yaml`, `b.yaml`, `c.yaml`. */
    function chartAndNext() {
      const chart = join(tempDir(), 'team-a');
      writeChartFiles(chart, new Map([['a.yaml', spec(1)]]));
      const next = new Map([
        ['a.yaml', spec(2)],
        ['b.yaml', spec(3)],
        ['c.yaml', spec(4)],
      ]);
      return { chart, next, before: readdirSync(chart).sort() };
    }

    it('puts back every file it replaced and removes every file it created when putting one in place fails', () => {
      const { chart, next, before } = chartAndNext();
      faults.rename = (_from, to) => {
        if (to === join(chart, 'c.yaml')) throw fsError('ENOSPC');
      };
      expect(() => writeChartFiles(chart, next)).toThrow(
        /cannot write into .*team-a: no space left on the device .*nothing was imported/,
      );
      expect(readdirSync(chart).sort()).toEqual(before);
      expect(readFileSync(join(chart, 'a.yaml'), 'utf8')).toBe(stamped(spec(1)));
    });

    it('leaves a file it failed to replace as it was, with nothing beside it', () => {
      const { chart, next, before } = chartAndNext();
      faults.rename = (from, to) => {
        if (to === join(chart, 'a.yaml') && from.includes('specforge-tmp')) throw fsError('EACCES');
      };
      expect(() => writeChartFiles(chart, next)).toThrow(/permission denied/);
      expect(readdirSync(chart).sort()).toEqual(before);
      expect(readFileSync(join(chart, 'a.yaml'), 'utf8')).toBe(stamped(spec(1)));
    });

    it('puts back a link it replaced with --force when a later file fails, never touching what it points to', () => {
      const { chart, next, before } = chartAndNext();
      const outside = join(chart, '..', 'outside.txt');
      writeFileSync(outside, 'precious');
      symlinkSync(outside, join(chart, 'b.yaml'));
      faults.rename = (_from, to) => {
        if (to === join(chart, 'c.yaml')) throw fsError('ENOSPC');
      };
      expect(() => writeChartFiles(chart, next, { force: true })).toThrow(/no space left/);
      expect(readdirSync(chart).sort()).toEqual([...before, 'b.yaml'].sort());
      expect(readlinkSync(join(chart, 'b.yaml'))).toBe(outside);
      expect(readFileSync(outside, 'utf8')).toBe('precious');
    });

    it('leaves the chart as it was when writing a file fails', () => {
      const { chart, next, before } = chartAndNext();
      let writes = 0;
      faults.write = () => {
        // The lock's, a.yaml's, then b.yaml's: after one file is written aside.
        if (++writes === 3) throw fsError('EDQUOT');
      };
      expect(() => writeChartFiles(chart, next)).toThrow(/disk quota exceeded .*nothing was imported/);
      expect(readdirSync(chart).sort()).toEqual(before);
      expect(readFileSync(join(chart, 'a.yaml'), 'utf8')).toBe(stamped(spec(1)));
    });

    it('leaves no directory behind when the write into a chart it created fails', () => {
      const root = tempDir();
      const chart = join(root, 'charts', 'team-a');
      faults.rename = (_from, to) => {
        if (to.endsWith('.yaml')) throw fsError('ENOSPC');
      };
      expect(() => writeChartFiles(chart, files())).toThrow(/no space left/);
      expect(readdirSync(root)).toEqual([]);
    });

    it('replaces every file at once when nothing fails, leaving nothing beside them', () => {
      const { chart, next } = chartAndNext();
      expect(writeChartFiles(chart, next)).toMatchObject({
        updated: [join(chart, 'a.yaml')],
        created: [join(chart, 'b.yaml'), join(chart, 'c.yaml')],
      });
      expect(readdirSync(chart).sort()).toEqual(['a.yaml', 'b.yaml', 'c.yaml']);
      expect(readFileSync(join(chart, 'a.yaml'), 'utf8')).toBe(stamped(spec(2)));
    });
  });
});
