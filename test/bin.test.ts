/**
 * bin/specforge.js, the installed entry point, as a user's shell runs it (the built lib/ behind it): the version
 * and help of the package it belongs to, and one sentence instead of a stack trace when its code cannot load.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './support/tmp.js';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin/specforge.js');

function specforge(
  args: readonly string[],
  bin = BIN,
): { status: number | null; stdout: string; stderr: string } {
  // From another directory: what the command reads of its own package is found relative to itself.
  return spawnSync(process.execPath, [bin, ...args], { cwd: tempDir(), encoding: 'utf8', timeout: 60_000 });
}

describe('bin/specforge.js', () => {
  it('prints the version of its own package, from any working directory', () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(specforge(['--version'])).toMatchObject({ status: 0, stdout: `${version}\n`, stderr: '' });
  });

  it("prints a command's own usage for --help, and a short usage error otherwise", () => {
    expect(specforge(['render', '--help'])).toMatchObject({ status: 0, stderr: '' });
    expect(specforge(['render', '--help']).stdout).toMatch(/^Usage: specforge render /);
    expect(specforge(['render', '--nope'])).toMatchObject({
      status: 2,
      stdout: '',
      stderr: expect.stringMatching(
        /^specforge: unknown option --nope\nRun 'specforge render --help' for usage\.\n$/,
      ),
    });
  });

  it('says in one line, without a stack trace, that its code is missing (a checkout not built)', () => {
    const copy = join(tempDir(), 'bin');
    mkdirSync(copy);
    copyFileSync(BIN, join(copy, 'specforge.js'));
    const r = specforge(['--version'], join(copy, 'specforge.js'));
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /^specforge: cannot load its code \(lib\/cli\.js; run `npm run build` in a checkout\): .+\n$/,
    );
    expect(r.stdout).toBe('');
  });
});
