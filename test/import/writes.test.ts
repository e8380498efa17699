import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { crd, fakeApi, type FakeApi } from '../support/fake-api.js';
import { run, tempDir } from '../support/tmp.js';

const OPDEMO = crd('app.example.com', 'AppService', 'appservices', 'v1');
const KUBEBUILDER = crd('batch.schwarzeni.github.com', 'AppService', 'appservices', 'v1alpha1');

function appService(apiVersion: string, size: number, ns = 'shop', name = 'web'): Record<string, unknown> {
  const spec =
    apiVersion === 'app.example.com/v1'
      ? { size, image: 'nginx:1.27', ports: [{ port: 80, targetPort: 80 }] }
      : { replicas: size, image: 'nginx:1.27', ports: [{ port: 80, targetPort: 80 }] };
  return {
    apiVersion,
    kind: 'AppService',
    metadata: { namespace: ns, name, uid: `uid-${apiVersion}` },
    spec,
  };
}

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function importInto(chart: string, size: number, ...extra: string[]) {
  await api?.close();
  api = await fakeApi([OPDEMO], [appService('app.example.com/v1', size)]);
  return run(['import', '--chart', chart, '-n', 'shop', '--kubeconfig', api.kubeconfig, ...extra]);
}

const FILE = 'appservice_app.example.com_shop_web.yaml';

/** The one spec file import wrote into `chart`, whatever its name. */
function specIn(chart: string): string {
  const files = readdirSync(chart).filter((f) => f.endsWith('.yaml'));
  expect(files).toHaveLength(1);
  return join(chart, files[0] ?? '');
}

describe('what specforge import writes into a chart', () => {
  it('names the file by kind, group, namespace and name', async () => {
    const chart = join(tempDir(), 'team-a');
    const r = await importInto(chart, 2);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(readdirSync(chart)).toEqual([FILE]);
  });

  it('refuses to replace a spec file the team edited: exit 1, the file unchanged, nothing written', async () => {
    const chart = join(tempDir(), 'team-a');
    await importInto(chart, 2);
    const file = specIn(chart);
    const edited = readFileSync(file, 'utf8').replace('size: 2', 'size: 5');
    writeFileSync(file, edited);
    const r = await importInto(chart, 3);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `${file}: import would replace this file, but it was edited since import wrote it`,
    );
    expect(r.err).toContain('--force');
    expect(r.err).toMatch(/nothing imported, .*team-a unchanged/);
    expect(readFileSync(file, 'utf8')).toBe(edited);
  });

  it('replaces an edited file with --force, and says so', async () => {
    const chart = join(tempDir(), 'team-a');
    await importInto(chart, 2);
    const file = specIn(chart);
    writeFileSync(file, readFileSync(file, 'utf8').replace('size: 2', 'size: 5'));
    const r = await importInto(chart, 3, '--force');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`${file}: replaced (--force), although it was edited since import wrote it`);
    expect(readFileSync(file, 'utf8')).toMatch(/size: 3/);
  });

  it('replaces a file it wrote and nobody changed, without --force', async () => {
    const chart = join(tempDir(), 'team-a');
    await importInto(chart, 2);
    const r = await importInto(chart, 3);
    expect(r.code).toBe(0);
    expect(readFileSync(specIn(chart), 'utf8')).toMatch(/size: 3/);
  });

  it('never writes through a link planted at the target or at a temporary name', async () => {
    const root = tempDir();
    const chart = join(root, 'team-a');
    mkdirSync(chart);
    const outside = join(root, 'outside.txt');
    writeFileSync(outside, 'precious');
    // The temporary names of today and of before: a link at either must not be followed.
    symlinkSync(outside, join(chart, `.${FILE}.specforge-tmp-${process.pid}`));
    symlinkSync(outside, join(chart, `${FILE}.specforge-tmp`));
    symlinkSync(outside, join(chart, 'appservice.shop.web.yaml.specforge-tmp'));
    const r = await importInto(chart, 2);
    expect(r.code).toBe(0);
    expect(readFileSync(outside, 'utf8')).toBe('precious');
    expect(lstatSync(join(chart, FILE)).isFile()).toBe(true);

    const target = join(chart, FILE);
    const other = join(tempDir(), 'team-b');
    mkdirSync(other);
    symlinkSync(outside, join(other, FILE));
    const refused = await importInto(other, 2);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/symbolic link/);
    expect(readFileSync(outside, 'utf8')).toBe('precious');
    expect(existsSync(target)).toBe(true);
  });

  it('gives two resources of one kind and name in two groups two files, never one', async () => {
    const chart = join(tempDir(), 'team-a');
    api = await fakeApi(
      [OPDEMO, KUBEBUILDER],
      [appService('app.example.com/v1', 2), appService('batch.schwarzeni.github.com/v1alpha1', 2)],
    );
    const r = await run(['import', '--chart', chart, '-n', 'shop', '--kubeconfig', api.kubeconfig]);
    // Both would make Deployment shop/web: the in-memory render names the clash in both files and nothing is
    // written; before, the second silently took the first's file.
    expect(r.code).toBe(1);
    expect(r.err).toContain('appservice_app.example.com_shop_web.yaml');
    expect(r.err).toContain('appservice_batch.schwarzeni.github.com_shop_web.yaml');
    expect(existsSync(chart) ? readdirSync(chart).filter((f) => f.endsWith('.yaml')) : []).toEqual([]);
  });
});
