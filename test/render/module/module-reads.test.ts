import fs, { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { importedFiles } from '../../../src/render/module/module-graph.js';
import {
  filesReadBy,
  moduleReads,
  ownCaller,
  pathOf,
  readFlags,
  recordable,
  recordReadsOf,
  stopRecording,
} from '../../../src/render/module/module-reads.js';
import { tempDir, writeFiles } from '../../support/tmp.js';

const SPECFORGE = resolve(import.meta.dirname, '../../..');

afterEach(stopRecording);

/** A directory of files `a.yaml` … `h.yaml`, and the name of a chart module (never run) to record them under. */
function files(): { dir: string; module: string; file: (n: string) => string } {
  const dir = tempDir('module-reads-');
  for (const n of 'abcdefgh') writeFileSync(join(dir, `${n}.yaml`), `${n}: 1\n`);
  return { dir, module: join(dir, 'chart.mjs'), file: (n) => join(dir, `${n}.yaml`) };
}

describe('the files a chart module reads', () => {
  it('are recorded through every read of node:fs, named imports of node:fs and node:fs/promises too', async () => {
    const { module, file } = files();
    recordReadsOf(module);
    readFileSync(file('a'));
    fs.readFileSync(pathToFileURL(file('b')));
    await new Promise((done) => fs.readFile(file('c'), done));
    await readFile(file('d'));
    await (await fs.promises.open(file('e'), 'r')).close();
    closeSync((openSync as (path: string) => number)(file('f'))); // no flags: read
    await new Promise<void>((done) =>
      fs
        .createReadStream(file('g'))
        .on('close', () => done())
        .resume(),
    );
    await promisify(fs.readFile)(file('h')); // through util.promisify's wrapper, which is Node's code
    stopRecording();
    readFileSync(file('a')); // after the module ended
    expect(filesReadBy(module)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map(file));
  });

  it('leave out files opened to write, descriptors, and reads made while no module is current', () => {
    const { module, file } = files();
    readFileSync(file('a'));
    recordReadsOf(module);
    closeSync(openSync(file('b'), 'w'));
    closeSync(openSync(file('c'), fs.constants.O_WRONLY | fs.constants.O_CREAT));
    const fd = openSync(file('d'), 'r+');
    readFileSync(fd);
    closeSync(fd);
    expect(filesReadBy(module)).toEqual([file('d')]);
  });

  it('count when the digest is taken: regular files in the repository, not the module, its imports, nor node_modules', () => {
    const root = tempDir('module-reads-');
    mkdirSync(join(root, 'repo', '.git'), { recursive: true });
    writeFiles(root, {
      'outside.yaml': 'o: 1\n',
      'repo/values.yaml': 'v: 1\r\n',
      'repo/charts/web/chart.mjs': "import { n } from './names.mjs';\nexport default () => n;\n",
      'repo/charts/web/names.mjs': "export const n = 'web';\n",
      'repo/node_modules/pkg/data.yaml': 'p: 1\n',
    });
    const module = join(root, 'repo/charts/web/chart.mjs');
    const charts = join(root, 'repo/charts');
    recordReadsOf(module);
    for (const f of [
      'outside.yaml',
      'repo/values.yaml',
      'repo/charts/web/chart.mjs',
      'repo/charts/web/names.mjs',
    ])
      readFileSync(join(root, f));
    readFileSync(join(root, 'repo/node_modules/pkg/data.yaml'));
    expect(() => readFileSync(join(root, 'repo/charts'))).toThrow(); // a directory: recorded, never counted
    expect(() => readFileSync(join(root, 'repo/gone.yaml'))).toThrow();
    stopRecording();
    const reads = moduleReads(module, charts, importedFiles(module, charts));
    expect(reads.map((f) => [f.path, Buffer.from(f.bytes).toString()])).toEqual([
      ['../values.yaml', 'v: 1\r\n'],
    ]);
    expect(moduleReads(join(root, 'repo/charts/other/chart.mjs'), charts)).toEqual([]);
  });

  it('leave out reads by Node, tsx and specforge, and specforge’s own files', () => {
    expect(ownCaller('node:internal/modules/esm/load')).toBe(true);
    expect(ownCaller('file:///p/node_modules/tsx/dist/esm/index.mjs?x=1')).toBe(true);
    expect(ownCaller(join(SPECFORGE, 'src/render/source/import-module.ts'))).toBe(true);
    expect(ownCaller(pathToFileURL(join(SPECFORGE, 'lib/render/source/import-module.js')).href)).toBe(true);
    expect(ownCaller('/p/charts/web/chart.ts')).toBe(false);
    expect(ownCaller('file:///p/node_modules/cdk8s/lib/yaml.js')).toBe(false); // cdk8s's Include reads for a module
    expect(ownCaller(undefined)).toBe(false);
    expect(recordable(join(SPECFORGE, 'schemas/x.json'))).toBe(false);
    expect(recordable(join(SPECFORGE, 'package.json'))).toBe(false);
    expect(recordable('/p/node_modules/pkg/x.yaml')).toBe(false);
    expect(recordable('/p/values.yaml')).toBe(true);
  });

  it('are named by path, Buffer or file: URL, opened for reading by flags', () => {
    expect(pathOf('/p/a.yaml')).toBe('/p/a.yaml');
    expect(pathOf('a.yaml')).toBe(resolve('a.yaml'));
    expect(pathOf(Buffer.from('/p/b.yaml'))).toBe('/p/b.yaml');
    expect(pathOf(new URL('file:///p/c.yaml'))).toBe('/p/c.yaml');
    expect(pathOf(new URL('https://example.com/x'))).toBeUndefined();
    expect(pathOf(3)).toBeUndefined();
    for (const f of [undefined, 'r', 'rs', 'sr', 'r+', 'rs+', fs.constants.O_RDONLY, fs.constants.O_RDWR])
      expect(readFlags(f)).toBe(true);
    for (const f of [
      'w',
      'w+',
      'a',
      'a+',
      'wx',
      fs.constants.O_WRONLY,
      fs.constants.O_RDWR | fs.constants.O_TRUNC,
    ])
      expect(readFlags(f)).toBe(false);
  });
});
