import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listYamlFiles } from '../../../src/render/source/chart-tree.js';
import { ListedFiles } from '../../../src/render/source/listed-files.js';
import { childPath } from '../../../src/util/child-path.js';
import { tempDir } from '../../support/tmp.js';

/** A chart whose files lie in sub-directories, behind links inside the charts directory, and under odd names. */
function chart(): { root: string; dir: string } {
  const root = tempDir();
  const dir = join(root, 'shop');
  mkdirSync(join(dir, 'sub', 'deeper'), { recursive: true });
  mkdirSync(join(root, 'elsewhere'));
  for (const file of [
    'a.yaml',
    'sub/b.yaml',
    'sub/deeper/c.yml',
    'new\nline.yaml',
    'ünï.yaml',
    '../elsewhere/d.yaml',
  ])
    writeFileSync(join(dir, file), 'x: 1\n');
  symlinkSync(join(root, 'elsewhere', 'd.yaml'), join(dir, 'linked.yaml'));
  symlinkSync(join(root, 'elsewhere'), join(dir, 'sub', 'there'));
  return { root, dir };
}

describe('ListedFiles', () => {
  it('gives back each file as the walk listed it: its path, its path in the chart, its real path, in order', () => {
    const { root, dir } = chart();
    const { real, files } = listYamlFiles(dir, realpathSync(root), []);
    const listed = new ListedFiles(dir, real, files);
    expect(listed.count).toBe(7);
    expect(listed.unpack()).toEqual(
      files.map((f) => ({ file: childPath(dir, f.rel), rel: f.rel, real: f.real })),
    );
    // the links' real paths are theirs, not the chart's path joined with the name
    expect(
      listed
        .unpack()
        .filter((f) => f.real.includes('/elsewhere/'))
        .map((f) => f.rel),
    ).toEqual(['linked.yaml', 'sub/there/d.yaml']);
  });

  it('lists none for a chart without YAML files', () => {
    const dir = tempDir();
    expect(new ListedFiles(dir, realpathSync(dir), []).unpack()).toEqual([]);
  });
});
