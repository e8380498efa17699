import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readTree } from '../../src/output/dist-writer.js';
import { app, badInputCases as cases, okPorts, pool } from '../support/bad-input-cases.js';
import { run, tempDir, writeFiles } from '../support/tmp.js';

describe('bad input', () => {
  let out: string;
  let before: Map<string, string>;

  beforeAll(async () => {
    // A dist/ rendered from a valid chart: every failing render below must leave it exactly like this.
    const charts = writeFiles(tempDir(), { 'good/app.yaml': app(okPorts) });
    out = join(tempDir(), 'dist');
    expect((await run(['render', charts, '--out', out])).code).toBe(0);
    before = readTree(out);
    expect(before.size).toBeGreaterThan(1);
  });

  it.each(cases)('rejects $name, naming the file and field, and leaves dist/ unchanged', async (c) => {
    const charts = writeFiles(tempDir(), { 'good/app.yaml': app(okPorts), ...c.files });
    const result = await run(['render', charts, '--out', out]);
    expect(result.code).toBe(1);
    const shown = result.err.replaceAll(`${charts}/`, '');
    for (const part of c.expect) expect(shown).toContain(part);
    expect(result.err).toMatch(/left unchanged/);
    expect(readTree(out)).toEqual(before);
    expect(existsSync(`${out}.specforge-tmp-${process.pid}`)).toBe(false);
  });

  it('rejects a file it cannot read in a chart rendered after good ones, and leaves dist/ unchanged (render, check)', async () => {
    // the render reads each chart when its turn comes: `good` is out before `z` is read
    const charts = writeFiles(tempDir(), { 'good/app.yaml': app(okPorts), 'm/app.yaml': app(okPorts) });
    writeFiles(charts, { 'z/app.yaml': app(okPorts) });
    writeFileSync(join(charts, 'z', 'latin1.yaml'), Buffer.from([0x61, 0x3a, 0x20, 0xe9, 0x0a]));
    const result = await run(['render', charts, '--out', out]);
    expect(result.code).toBe(1);
    expect(result.err).toContain(join(charts, 'z', 'latin1.yaml'));
    expect(result.err).toMatch(/UTF-8/);
    expect(result.err).toMatch(/left unchanged/);
    expect(readTree(out)).toEqual(before);
    expect(existsSync(`${out}.specforge-tmp-${process.pid}`)).toBe(false);
    const checked = await run(['check', charts, '--out', out]);
    expect(checked.code).toBe(1);
    expect(checked.err).toMatch(/UTF-8/);
    expect(`${checked.out}${checked.err}`).not.toMatch(/out of date|^(---|\+\+\+) /m);
  });

  it('has at least 25 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(25);
  });

  it('reports every error of a run together, across files and charts', async () => {
    const charts = writeFiles(tempDir(), {
      'a/x.yaml': app('  ports:\n    - port: 80\n'),
      'b/y.yaml': pool('  taints:\n    - key: k\n      effect: Never\n'),
    });
    const result = await run(['validate', charts]);
    expect(result.code).toBe(1);
    expect(result.err).toContain('a/x.yaml');
    expect(result.err).toContain('b/y.yaml');
    expect(result.err).toMatch(/2 errors/);
  });
});

describe('one run', () => {
  it('reports a wiring error of valid specs beside a schema error of another spec of the chart', async () => {
    const charts = writeFiles(tempDir(), {
      'a/x.yaml': app('  image: nginx\n  ports:\n    - port: 80\n      nodePort: 30080\n'),
      'a/y.yaml': app('  image: nginx\n  ports:\n    - port: 80\n      nodePort: 30080\n', 'name: api'),
      'a/z.yaml': app('  image: 5\n  ports:\n    - port: 80\n', 'name: broken'),
    });
    const result = await run(['validate', charts]);
    expect(result.code).toBe(1);
    expect(result.err).toContain('spec.image');
    expect(result.err).toContain('nodePort not used by another Service');
  });

  it('reports a bad name together with a schema error in the same document', async () => {
    const charts = writeFiles(tempDir(), {
      'a/x.yaml': app('  image: nginx\n  ports:\n    - port: 70000\n', 'name: Bad_Name'),
    });
    const result = await run(['validate', charts]);
    expect(result.code).toBe(1);
    expect(result.err).toContain('spec.ports[0].port');
    expect(result.err).toContain('metadata.name');
  });

  it('reports a type error and every other error of the same document in one run', async () => {
    const spec =
      '  replicas: "three"\n  image: nginx\n  envs: FOO=1\n  ports:\n    - name: http\n      port: 80\n' +
      '      targetPort: metrics\n    - name: admin\n      port: 80\n';
    const charts = writeFiles(tempDir(), { 'a/x.yaml': app(spec) });
    const result = await run(['validate', charts]);
    expect(result.code).toBe(1);
    expect(result.err).toContain('spec.replicas: expected a value of type integer, found "three"');
    expect(result.err).toContain('spec.envs: expected a value of type array, found "FOO=1"');
    expect(result.err).toContain('spec.ports[0].targetPort');
    expect(result.err).toContain('spec.ports[1].port: expected a port/protocol not used by another port');
    expect(result.err).toMatch(/4 errors/);
  });

  it('reports a NodePool type error together with a reserved taint key of the same document', async () => {
    const spec = '  handler: 7\n  taints:\n    - key: node.kubernetes.io/x\n      effect: NoSchedule\n';
    const charts = writeFiles(tempDir(), { 'a/p.yaml': pool(spec) });
    const result = await run(['validate', charts]);
    expect(result.code).toBe(1);
    expect(result.err).toContain('spec.handler');
    expect(result.err).toContain('spec.taints[0].key');
  });
});
