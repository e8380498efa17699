/**
 * What a chart module's objects may hold that no manifest can (src/render/chart/value-guard.ts): an empty list item,
 * a number that is not finite, a value that holds itself. Each is a sentence naming chart.ts, the object and the
 * field, exit 1, dist/ untouched, through bin/specforge.js as a user runs it; never a stack trace, a YAML writer's
 * sentence without a file, or a worker out of memory.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoTempDir, writeFiles } from '../../support/tmp.js';

const BIN = resolve(import.meta.dirname, '../../../bin/specforge.js');

function specforge(args: readonly string[], cwd: string): { code: number; err: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status ?? -1, err: r.stderr };
}

/** A chart module whose objects carry `bad` (a statement run first, then the objects' fields) where valid ones are. */
function module(bad?: string): string {
  return `import { ApiObject } from 'cdk8s';
export default function (chart: any): void {
  const spec: any = { size: 3 };
  ${bad ?? ''}
  new ApiObject(chart, 'web', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', finalizers: ${bad === undefined ? "['a.example.com/f']" : "[null, 'a.example.com/f']"} },
    spec: { ports: ${bad === undefined ? '[{ port: 80 }]' : '[{ port: 80 }, undefined]'} } } as any);
  new ApiObject(chart, 'widget', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec } as any);
}
`;
}

const FILE = join('charts', 'web', 'chart.ts');

describe("a chart module's objects with what no manifest holds", () => {
  it('stop the render with a sentence each naming chart.ts, the object and the field, dist/ untouched', () => {
    const root = repoTempDir('value-guard-');
    writeFiles(root, { 'charts/web/chart.ts': module() });
    const first = specforge(['render', 'charts', '--out', 'dist'], root);
    expect(first.code, first.err).toBe(0);
    const before = readFileSync(join(root, 'dist/web/widget.w.yaml'), 'utf8');
    writeFiles(root, {
      'charts/web/chart.ts': module('spec.self = spec; spec.ratio = NaN; spec.limit = -Infinity;'),
    });
    const r = specforge(['render', 'charts', '--out', 'dist'], root);
    expect(r.code).toBe(1);
    expect(r.err.trimEnd().split('\n')).toEqual([
      `${FILE} (Service/web) metadata.finalizers[0]: expected an item (a list holds no empty items), found null. Leave the item out of the list.`,
      `${FILE} (Service/web) spec.ports[1]: expected an item (a list holds no empty items), found undefined. Leave the item out of the list.`,
      `${FILE} (Widget/w) spec.self: expected plain data (a manifest holds no cycles), found a reference back to spec. Give the field a copy of the value, or build the value without the reference back.`,
      `${FILE} (Widget/w) spec.ratio: expected a finite number (JSON has no NaN or Infinity), found NaN. Give a number, or leave the field out.`,
      `${FILE} (Widget/w) spec.limit: expected a finite number (JSON has no NaN or Infinity), found -Infinity. Give a number, or leave the field out.`,
      'specforge: 5 errors; dist left unchanged.',
    ]);
    expect(readFileSync(join(root, 'dist/web/widget.w.yaml'), 'utf8')).toBe(before);
    rmSync(root, { recursive: true, force: true });
  });

  it('name a field once when the schema check names it already (NaN where an integer is expected)', () => {
    const root = repoTempDir('value-guard-');
    const nan = `import { ApiObject } from 'cdk8s';
export default function (chart: any): void {
  new ApiObject(chart, 'web', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: {
    replicas: NaN, selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } } } as any);
}
`;
    writeFiles(root, { 'charts/web/chart.ts': nan });
    const r = specforge(['render', 'charts', '--out', 'dist'], root);
    expect(r.code).toBe(1);
    expect(r.err.trimEnd().split('\n')).toEqual([
      `${FILE} (Deployment/web) spec.replicas: expected an integer of int32 (from -2147483648 to 2147483647), found NaN.`,
      'specforge: 1 error; dist left unchanged.',
    ]);
    rmSync(root, { recursive: true, force: true });
  });
});
