import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempDir, writeFiles } from './support/tmp.js';
import { workspace } from './diff/workspace.js';

const spec =
  'apiVersion: quay.io/v1alpha1\nkind: Podroute\nmetadata:\n  name: hello\nspec:\n  image: hello:1\n';

describe('specforge command line', () => {
  it('exits 2 with usage on an unknown command, an unknown flag, or a missing charts directory', async () => {
    for (const argv of [
      ['explode'],
      [],
      ['render', '--frobnicate'],
      ['render', '/nonexistent/charts'],
      ['validate', 'charts', '--out', 'x'],
      ['render', 'a', 'b'],
    ]) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toContain('Usage: specforge');
    }
  });

  it('validate writes nothing and exits 0 on valid charts', async () => {
    const charts = writeFiles(tempDir(), { 'a/s.yaml': spec });
    const r = await run(['validate', charts]);
    expect(r).toMatchObject({ code: 0 });
    expect(r.out).toMatch(/valid \(1 chart, 3 objects\)/);
  });

  it('check exits 0 when dist/ matches and 1 with a diff when it drifted', async () => {
    const charts = writeFiles(tempDir(), { 'a/s.yaml': spec });
    const out = join(tempDir(), 'dist');
    expect((await run(['check', charts, '--out', out])).code).toBe(1);
    await run(['render', charts, '--out', out]);
    expect((await run(['check', charts, '--out', out])).code).toBe(0);
    writeFileSync(join(charts, 'a/s.yaml'), spec.replace('hello:1', 'hello:2'));
    const drift = await run(['check', charts, '--out', out]);
    expect(drift.code).toBe(1);
    expect(drift.out).toContain('-          image: hello:1');
    expect(drift.out).toContain('+          image: hello:2');
    expect(drift.err).toMatch(/1 changed, 0 missing, 0 stale/);
  });

  it('check shows a hand-edited dist/ file with its control characters escaped, never raw', async () => {
    const charts = writeFiles(tempDir(), { 'a/s.yaml': spec });
    const out = join(tempDir(), 'dist');
    await run(['render', charts, '--out', out]);
    const file = join(out, 'a/podroute.hello.yaml');
    writeFileSync(file, `${readFileSync(file, 'utf8')}# \u001b[2J\u001b]8;;http://x\u0007gotcha\r\n`);
    const drift = await run(['check', charts, '--out', out]);
    expect(drift.code).toBe(1);
    expect(drift.out).toContain('\\x1b[2J');
    expect(drift.out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
  });

  it('check never prints the values of a Secret a chart module renders, and still names its file', async () => {
    const secretModule = (pw: string): string =>
      `import { ApiObject } from 'cdk8s';\nexport default (chart) => { new ApiObject(chart, 's', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'app' }, data: { pw: '${pw}' } }); };\n`;
    // Inside the repository, so the module's `import ... from 'cdk8s'` resolves.
    const w = workspace([]);
    const charts = writeFiles(w.charts, { 'vault/chart.mjs': secretModule('b2xkLXNlY3JldA==') });
    const out = w.dist;
    expect((await run(['render', charts, '--out', out])).code).toBe(0);
    writeFileSync(join(charts, 'vault/chart.mjs'), secretModule('bmV3LXNlY3JldA=='));
    const drift = await run(['check', charts, '--out', out]);
    expect(drift.code).toBe(1);
    expect(drift.out).toMatch(/vault\/.*secret.*\.yaml/i);
    expect(drift.out).toContain('holds a Secret');
    expect(drift.out).not.toContain('b2xkLXNlY3JldA');
    expect(drift.out).not.toContain('bmV3LXNlY3JldA');
  });

  it('prints help with exit 0', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('render [CHARTS_DIR] [--out DIR]');
  });
});
