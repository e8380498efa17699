import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageVersion } from '../../src/cli/version.js';
import { tempDir, writeFiles } from '../support/tmp.js';

describe('packageVersion', () => {
  it("reads the version of specforge's own package.json", () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(packageVersion()).toBe(version);
  });

  it('says in one sentence which file it could not read a version from', () => {
    const dir = writeFiles(tempDir(), { 'none.json': '{}', 'bad.json': '{' });
    const url = (name: string): URL => pathToFileURL(`${dir}/${name}`);
    expect(() => packageVersion(url('none.json'))).toThrow(
      /^cannot read the version from .*none\.json: it has no "version"$/,
    );
    expect(() => packageVersion(url('bad.json'))).toThrow(/^cannot read the version from .*bad\.json: /);
    expect(() => packageVersion(url('missing.json'))).toThrow(
      /^cannot read the version from .*missing\.json: ENOENT/,
    );
  });
});
