import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeImageArchive, type ImageSpec } from '../../scripts/image/oci-archive.js';
import { tempDir } from '../support/tmp.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const longDir = `${'d'.repeat(60)}/${'e'.repeat(60)}/${'f'.repeat(60)}`;
const longerName = 'n'.repeat(120);

/** A layer tree with what layers hold: directories, an executable, a plain file, a symlink, and long paths. */
function tree(root: string, mtime: number, mode: number): string {
  mkdirSync(join(root, 'usr/bin'), { recursive: true });
  writeFileSync(join(root, 'usr/bin/prog'), '#!prog\n');
  chmodSync(join(root, 'usr/bin/prog'), mode | 0o111);
  writeFileSync(join(root, 'usr/readme'), 'hello\n');
  chmodSync(join(root, 'usr/readme'), mode);
  symlinkSync('bin/prog', join(root, 'usr/link'));
  mkdirSync(join(root, longDir), { recursive: true });
  writeFileSync(join(root, longDir, longerName), 'long\n');
  utimesSync(join(root, 'usr/readme'), mtime, mtime);
  return root;
}

const spec = (layer: string): ImageSpec => ({
  ref: 'localhost/test/app:1.2.3',
  layers: [layer],
  config: {
    User: '65532:65532',
    Entrypoint: ['/usr/bin/prog'],
    Labels: { b: '2', a: '1' },
    ExposedPorts: ['8080'],
  },
  created: 1_700_000_000,
  architecture: 'amd64',
});

const tar = (args: string[]): string => {
  const r = spawnSync('tar', args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
};

describe('writeImageArchive', () => {
  it('writes the same bytes from trees that differ only in mtimes, modes beyond the x bit, and the umask', () => {
    const a = tempDir('oci-a-');
    const b = tempDir('oci-b-');
    dirs.push(a, b);
    tree(join(a, 'l'), 1_000, 0o600);
    tree(join(b, 'l'), 2_000_000, 0o664);
    const ra = writeImageArchive(spec(join(a, 'l')), join(a, 'image.tar'));
    const rb = writeImageArchive(spec(join(b, 'l')), join(b, 'image.tar'));
    expect(rb.digest).toBe(ra.digest);
    expect(readFileSync(join(b, 'image.tar')).equals(readFileSync(join(a, 'image.tar')))).toBe(true);
    expect(ra.size).toBe(readFileSync(join(a, 'image.tar')).length);
  });

  it('writes layers GNU tar reads back: sorted, owner 0, modes 755/644/777, every mtime `created`, long paths whole', () => {
    const d = tempDir('oci-');
    dirs.push(d);
    tree(join(d, 'l'), 5, 0o600);
    const r = writeImageArchive(spec(join(d, 'l')), join(d, 'image.tar'));
    mkdirSync(join(d, 'x'));
    tar(['-xf', join(d, 'image.tar'), '-C', join(d, 'x')]);
    const layer = join(d, 'x/blobs/sha256', (r.layers[0]?.digest ?? '').slice(7));
    const listing = tar(['--numeric-owner', '--full-time', '-tvf', layer]).trim().split('\n');
    expect(listing.map((l) => l.split(/\s+/).slice(0, 2).join(' '))).toEqual([
      'drwxr-xr-x 0/0',
      'drwxr-xr-x 0/0',
      'drwxr-xr-x 0/0',
      '-rw-r--r-- 0/0',
      'drwxr-xr-x 0/0',
      'drwxr-xr-x 0/0',
      '-rwxr-xr-x 0/0',
      'lrwxrwxrwx 0/0',
      '-rw-r--r-- 0/0',
    ]);
    expect(listing.map((l) => l.split(/\s+/).slice(5).join(' '))).toEqual([
      `${longDir.split('/')[0]}/`,
      `${longDir.split('/').slice(0, 2).join('/')}/`,
      `${longDir}/`,
      `${longDir}/${longerName}`,
      'usr/',
      'usr/bin/',
      'usr/bin/prog',
      'usr/link -> bin/prog',
      'usr/readme',
    ]);
    expect(new Set(listing.map((l) => l.split(/\s+/).slice(3, 5).join(' ')))).toEqual(
      new Set(['2023-11-14 22:13:20']),
    );
  });

  it('writes an OCI layout whose digests are its blobs, and a docker manifest naming the same blobs', () => {
    const d = tempDir('oci-');
    dirs.push(d);
    tree(join(d, 'l'), 5, 0o644);
    const r = writeImageArchive(spec(join(d, 'l')), join(d, 'image.tar'));
    expect(
      tar(['-tf', join(d, 'image.tar')])
        .trim()
        .split('\n'),
    ).toEqual([
      'blobs/',
      'blobs/sha256/',
      ...[r.configDigest, r.digest, r.layers[0]?.digest ?? '']
        .map((x) => `blobs/sha256/${x.slice(7)}`)
        .sort(),
      'index.json',
      'manifest.json',
      'oci-layout',
    ]);
    const read = (p: string): any => JSON.parse(tar(['-xOf', join(d, 'image.tar'), p]));
    const index = read('index.json');
    expect(index.manifests[0]).toMatchObject({
      digest: r.digest,
      annotations: { 'io.containerd.image.name': 'localhost/test/app:1.2.3' },
    });
    const config = read(`blobs/sha256/${r.configDigest.slice(7)}`);
    expect(config).toMatchObject({
      created: '2023-11-14T22:13:20Z',
      architecture: 'amd64',
      os: 'linux',
      config: { User: '65532:65532', ExposedPorts: { '8080/tcp': {} }, Labels: { a: '1', b: '2' } },
      rootfs: { type: 'layers', diff_ids: [r.layers[0]?.digest] },
    });
    expect(Object.keys(config.config.Labels)).toEqual(['a', 'b']);
    expect(read('manifest.json')).toEqual([
      {
        Config: `blobs/sha256/${r.configDigest.slice(7)}`,
        RepoTags: ['localhost/test/app:1.2.3'],
        Layers: [`blobs/sha256/${(r.layers[0]?.digest ?? '').slice(7)}`],
      },
    ]);
  });
});
