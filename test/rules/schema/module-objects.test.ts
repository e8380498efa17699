/**
 * The schema check on the command line: objects a chart module (`chart.ts`) builds with cdk8s `ApiObject` are
 * decoded as the API server decodes them (src/rules/schema/), through bin/specforge.js as a user runs it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoTempDir, writeFiles } from '../../support/tmp.js';

const BIN = resolve(import.meta.dirname, '../../../bin/specforge.js');

function specforge(args: readonly string[], cwd: string): { code: number; err: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8' });
  return { code: r.status ?? -1, err: r.stderr };
}

/** A chart module making a Deployment, a Secret and a ConfigMap, with `bad` in place of their valid values. */
function module(bad: { replicas?: string; memory?: string; token?: string; extra?: string } = {}): string {
  return `import { ApiObject } from 'cdk8s';
export default function (chart: any): void {
  new ApiObject(chart, 'web', {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
    spec: {
      replicas: ${bad.replicas ?? '3'},
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [
        { name: 'web', image: 'nginx', resources: { limits: { memory: ${bad.memory ?? "'128Mi'"} } } },
      ] } },
    },
  } as any);
  new ApiObject(chart, 'token', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'token' }, data: { token: ${bad.token ?? "'c2VjcmV0'"} } } as any);
  new ApiObject(chart, 'settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { a: 'b' }${bad.extra ?? ''} } as any);
}
`;
}

describe('objects of a chart module, checked against their schema on the command line', () => {
  it('stop the render with exit 1 naming chart.ts, the object and the field, dist/ untouched', () => {
    const root = repoTempDir('schema-');
    writeFiles(root, { 'charts/web/chart.ts': module() });
    expect(specforge(['render', 'charts', '--out', 'dist'], root).code).toBe(0);
    const before = readFileSync(join(root, 'dist/web/deployment.web.yaml'), 'utf8');
    writeFiles(root, {
      'charts/web/chart.ts': module({
        replicas: "'three'",
        memory: "'lots'",
        token: "'not base64!'",
        extra: ', extra: 1',
      }),
    });
    const r = specforge(['render', 'charts', '--out', 'dist'], root);
    expect(r.code).toBe(1);
    const file = join('charts', 'web', 'chart.ts');
    expect(r.err.trimEnd().split('\n')).toEqual([
      `${file} (Deployment/web) spec.replicas: expected an integer of int32 (from -2147483648 to 2147483647), found "three".`,
      `${file} (Deployment/web) spec.template.spec.containers[0].resources.limits.memory: expected a quantity such as 500m, 2, 128Mi or 1.5Gi (resource.Quantity), found "lots".`,
      `${file} (Secret/token) data.token: expected base64 data (standard alphabet, = padded), as the API server decodes a byte field, found "not base64!".`,
      `${file} (ConfigMap/settings) extra: expected no field "extra": ConfigMap has no such field (the API server's strict field validation refuses unknown fields), found 1.`,
      'specforge: 4 errors; dist left unchanged.',
    ]);
    expect(readFileSync(join(root, 'dist/web/deployment.web.yaml'), 'utf8')).toBe(before);
    rmSync(root, { recursive: true, force: true });
  });

  it('render the valid shapes (a quantity as a number, base64 data)', () => {
    const root = repoTempDir('schema-');
    writeFiles(root, { 'charts/web/chart.ts': module({ memory: '1.5' }) });
    const r = specforge(['render', 'charts', '--out', 'dist'], root);
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(join(root, 'dist/web/secret.token.yaml'), 'utf8')).toContain('token: c2VjcmV0');
    rmSync(root, { recursive: true, force: true });
  });

  it('name in a note the kinds checked against their schema only, and none with a rule set of their own', () => {
    const root = repoTempDir('schema-');
    const storage = `import { ApiObject } from 'cdk8s';
export default function (chart: any): void {
  new ApiObject(chart, 'fast', { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fast' }, provisioner: 'x.example.com' } as any);
}
`;
    writeFiles(root, { 'charts/web/chart.ts': module(), 'charts/storage/chart.ts': storage });
    const r = specforge(['render', 'charts', '--out', 'dist'], root);
    expect(r.code, r.err).toBe(0);
    const notes = r.err.split('\n').filter((l) => l.includes('schema only'));
    expect(notes).toEqual([
      "specforge: note: objects of chart modules of kind StorageClass (storage.k8s.io/v1) were checked against their schema only (types, fields, quantities, base64), not yet against the API server's validation rules of their kind.",
    ]);
    rmSync(root, { recursive: true, force: true });
  });
  it("refuse a v1 List (kubectl's envelope) naming chart.ts and the object, and say to add its items as objects", () => {
    const root = repoTempDir('schema-');
    const list = `import { ApiObject } from 'cdk8s';
export default function (chart: any): void {
  new ApiObject(chart, 'all', { apiVersion: 'v1', kind: 'List', metadata: { name: 'all' }, items: [
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bad key!' }, data: { 'bad key!': 'x' } },
  ] } as any);
}
`;
    writeFiles(root, { 'charts/web/chart.ts': list });
    const r = specforge(['render', 'charts', '--out', 'dist'], root);
    expect(r.code).toBe(1);
    expect(r.err.trimEnd().split('\n')).toEqual([
      `${join('charts', 'web', 'chart.ts')} (List/all) kind: expected the kind of an object to create (List is kubectl's envelope of several objects, unpacked before they are sent: the API server stores no list), found "List" of 1 item. Add each of its items to the chart as an object of its own (with cdk8s, an ApiObject per item).`,
      'specforge: 1 error; dist left unchanged.',
    ]);
    expect(existsSync(join(root, 'dist'))).toBe(false);
    rmSync(root, { recursive: true, force: true });
  });
});
