/**
 * What `specforge import` writes into a chart directory, read from the real kube-apiserver (the shared test control
 * plane, with the seed operators' CRDs): one file per resource named by kind, group, namespace and name; a file the
 * team edited is replaced only with --force; a link planted at the target or at a temporary name is never followed;
 * two resources of one kind and name in two groups get two files. Each test imports from a namespace of its own.
 */
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
import { beforeAll, expect, it } from 'vitest';
import { run, tempDir } from '../support/tmp.js';
import { clusterDescribe, controlPlane, uniq } from './helpers.js';
import { kubectl } from './kubectl.js';
import { createAsOperator, installSeedCrds, sampleManifest } from './seed-operators.js';

/** The plane the harness started (the suite is skipped without one). */
function plane() {
  const info = controlPlane();
  if (info === null) throw new Error('no control plane');
  return info;
}

/** The AppService spec: the sample's image, `size` replicas, and no fixed nodePort (they are cluster-wide). */
const spec = (size: number) => ({ size, image: 'nginx:1.27', ports: [{ port: 80, targetPort: 80 }] });

/**
 * A namespace of its own holding opdemo's AppService `web` of `size`, with what its operator makes of it (as the
 * migration suites create it). Returns the namespace.
 */
async function appServiceOf(size: number): Promise<string> {
  const ns = uniq('import-writes');
  await createAsOperator(plane(), 'opdemo', ns, { name: 'web', spec: spec(size) });
  return ns;
}

/** The team scales the live AppService to `size` (what the next import reads), and its operator the Deployment. */
function resize(ns: string, size: number): void {
  kubectl(['scale', 'deployment', 'web', '-n', ns, `--replicas=${size}`]);
  kubectl([
    'patch',
    'appservices.app.example.com',
    'web',
    '-n',
    ns,
    '--type=merge',
    '-p',
    JSON.stringify({ spec: { size } }),
  ]);
}

function importInto(chart: string, ns: string, ...extra: string[]) {
  return run(['import', '--chart', chart, '-n', ns, '--kubeconfig', plane().kubeconfigPath, ...extra]);
}

const fileOf = (ns: string): string => `appservice_app.example.com_${ns}_web.yaml`;

/** The one spec file import wrote into `chart`, whatever its name. */
function specIn(chart: string): string {
  const files = readdirSync(chart).filter((f) => f.endsWith('.yaml'));
  expect(files).toHaveLength(1);
  return join(chart, files[0] ?? '');
}

clusterDescribe('what specforge import writes into a chart', () => {
  beforeAll(async () => {
    // The Route CRD as the other cluster tests apply it (manager kubectl), before the seed CRDs: installSeedCrds then
    // leaves it as it is, and a later `kubectl apply --server-side` of it by another file meets no conflict.
    kubectl(['apply', '--server-side', '-f', 'test/fixtures/openshift-route-crd.yaml']);
    await installSeedCrds(plane());
  });

  it('names the file by kind, group, namespace and name', async () => {
    const ns = await appServiceOf(2);
    const chart = join(tempDir(), 'team-a');
    const r = await importInto(chart, ns);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(readdirSync(chart)).toEqual([fileOf(ns)]);
  });

  it('refuses to replace a spec file the team edited: exit 1, the file unchanged, nothing written', async () => {
    const ns = await appServiceOf(2);
    const chart = join(tempDir(), 'team-a');
    await importInto(chart, ns);
    const file = specIn(chart);
    const edited = readFileSync(file, 'utf8').replace('size: 2', 'size: 5');
    expect(edited).not.toBe(readFileSync(file, 'utf8'));
    writeFileSync(file, edited);
    resize(ns, 3);
    const r = await importInto(chart, ns);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `${file}: import would replace this file, but it was edited since import wrote it`,
    );
    expect(r.err).toContain('--force');
    expect(r.err).toMatch(/nothing imported, .*team-a unchanged/);
    expect(readFileSync(file, 'utf8')).toBe(edited);
  });

  it('replaces an edited file with --force, and says so', async () => {
    const ns = await appServiceOf(2);
    const chart = join(tempDir(), 'team-a');
    await importInto(chart, ns);
    const file = specIn(chart);
    writeFileSync(file, readFileSync(file, 'utf8').replace('size: 2', 'size: 5'));
    resize(ns, 3);
    const r = await importInto(chart, ns, '--force');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`${file}: replaced (--force), although it was edited since import wrote it`);
    expect(readFileSync(file, 'utf8')).toMatch(/size: 3/);
  });

  it('replaces a file it wrote and nobody changed, without --force', async () => {
    const ns = await appServiceOf(2);
    const chart = join(tempDir(), 'team-a');
    await importInto(chart, ns);
    expect(readFileSync(specIn(chart), 'utf8')).toMatch(/size: 2/);
    resize(ns, 3);
    const r = await importInto(chart, ns);
    expect(r.code).toBe(0);
    expect(readFileSync(specIn(chart), 'utf8')).toMatch(/size: 3/);
  });

  it('never writes through a link planted at the target or at a temporary name', async () => {
    const ns = await appServiceOf(2);
    const file = fileOf(ns);
    const root = tempDir();
    const chart = join(root, 'team-a');
    mkdirSync(chart);
    const outside = join(root, 'outside.txt');
    writeFileSync(outside, 'precious');
    // The temporary names of today and of before: a link at either must not be followed. The import runs in this
    // process, so today's first temporary name is the one with this pid.
    symlinkSync(outside, join(chart, `.${file}.specforge-tmp-${process.pid}`));
    symlinkSync(outside, join(chart, `${file}.specforge-tmp`));
    symlinkSync(outside, join(chart, `appservice.${ns}.web.yaml.specforge-tmp`));
    const r = await importInto(chart, ns);
    expect(r.code).toBe(0);
    expect(readFileSync(outside, 'utf8')).toBe('precious');
    expect(lstatSync(join(chart, file)).isFile()).toBe(true);

    const target = join(chart, file);
    const other = join(tempDir(), 'team-b');
    mkdirSync(other);
    symlinkSync(outside, join(other, file));
    const refused = await importInto(other, ns);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/symbolic link/);
    expect(readFileSync(outside, 'utf8')).toBe('precious');
    expect(existsSync(target)).toBe(true);
  });

  it('gives two resources of one kind and name in two groups two files, never one: the second, whose objects clash, named and left out', async () => {
    const ns = await appServiceOf(2);
    // kubebuilder-appservice's AppService web beside opdemo's, as a user applies it (its operator would find
    // opdemo's Deployment web in the way, so it makes nothing).
    kubectl(
      ['apply', '-f', '-'],
      [0],
      JSON.stringify(
        sampleManifest('kubebuilder-appservice', ns, {
          name: 'web',
          spec: { replicas: 2, image: 'nginx:1.27', ports: [{ port: 80, targetPort: 80 }] },
        }),
      ),
    );
    const chart = join(tempDir(), 'team-a');
    const r = await importInto(chart, ns);
    // Both would make Deployment <ns>/web: the second is named and left out, the first imported (one resource
    // specforge cannot take never blocks the others); before, the second silently took the first's file.
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `AppService ${ns}/web (batch.schwarzeni.github.com/v1alpha1): not imported, no file written`,
    );
    expect(r.err).toContain(`appservice_app.example.com_${ns}_web.yaml`);
    expect(r.err).toContain(`appservice_batch.schwarzeni.github.com_${ns}_web.yaml`);
    expect(readdirSync(chart).filter((f) => f.endsWith('.yaml'))).toEqual([fileOf(ns)]);
  });
});
