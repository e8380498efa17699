import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderCharts } from '../../src/render/render.js';
import { repoTempDir, run, tempDir, writeFiles } from '../support/tmp.js';

/**
 * Chart modules (chart.mjs/chart.ts) are user code: what they do to the process becomes an error naming the
 * module, and their objects are checked like spec objects — a name cannot steer a file out of dist/.
 */

const ROOT = resolve(import.meta.dirname, '../..');

function chart(module: string, extra: Record<string, string> = {}): string {
  return writeFiles(repoTempDir('modules-'), { 'm/chart.mjs': module, ...extra });
}

async function render(charts: string): Promise<{ code: number; err: string; out: string; dist: string }> {
  const dist = join(tempDir(), 'dist');
  return { ...(await run(['render', charts, '--out', dist])), dist };
}

/** `specforge validate` in a process of its own, with a short module time limit. */
function validateIn(charts: string, timeoutMs: string): { status: number | null; stderr: string } {
  return spawnSync(process.execPath, [join(ROOT, 'bin/specforge.js'), 'validate', charts], {
    encoding: 'utf8',
    env: { ...process.env, SPECFORGE_MODULE_TIMEOUT_MS: timeoutMs },
    timeout: 30_000,
  });
}

const configMap = (name: string) =>
  `import { ApiObject } from 'cdk8s';\nexport default (chart) => { new ApiObject(chart, 'x', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: ${JSON.stringify(name)} } }); };\n`;

/** The error of a render a module ended with `process.exit(code)`. */
const stopped = (code: number): RegExp =>
  new RegExp(
    `m/chart\\.mjs: expected a chart module that finishes, found the render stopped \\(exit code ${code}\\)`,
  );

describe('chart modules', () => {
  it('refuses process.exit while loading, naming the module', async () => {
    const r = await render(chart('process.exit(0);\nexport default () => {};\n'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(stopped(0));
    expect(existsSync(r.dist)).toBe(false);
  });

  it('names the second of two module constructs that render one object, as well as the first', async () => {
    const service = (id: string, port: number) =>
      `  new AppService(chart, '${id}', { name: 'web', image: 'nginx', ports: [{ port: ${port} }] });\n`;
    const module = `import { AppService } from 'specforge';\nexport default (chart) => {\n${service('first', 80)}${service('second', 81)}};\n`;
    const r = await render(chart(module));
    expect(r.code).toBe(1);
    expect(r.err).toContain('found Deployment/web (construct m/second) also made by construct m/first');
  });

  it('finds a chart module that is a broken link, or a directory, and says what it is', async () => {
    const broken = writeFiles(repoTempDir('modules-'), { 'm/notes.txt': '' });
    symlinkSync('missing.mjs', join(broken, 'm/chart.mjs'));
    const r = await render(broken);
    expect(r.code).toBe(1);
    expect(r.err).toContain('chart.mjs');
    expect(r.err).toMatch(/a symbolic link to \S*missing\.mjs, which does not exist/);
    const dir = writeFiles(repoTempDir('modules-'), { 'm/chart.ts/x.txt': '' });
    const d = await render(dir);
    expect(d.code).toBe(1);
    expect(d.err).toMatch(/chart\.ts[\s\S]*a directory/);
  });

  it('refuses process.exit while building the chart', async () => {
    const r = await render(chart('export default () => { process.exit(3); };\n'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(stopped(3));
  });

  it('awaits an async default export: the objects it adds after an await are rendered', async () => {
    const module = `import { ApiObject } from 'cdk8s';\nexport default async (chart) => {\n  await new Promise((done) => setTimeout(done, 20));\n  new ApiObject(chart, 'x', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late' } });\n};\n`;
    const r = await render(chart(module));
    expect(r.err).toBe('');
    expect(readdirSync(join(r.dist, 'm'))).toContain('configmap.late.yaml');
  });

  it('reports the rejection of an async default export, naming the module and the line it threw on', async () => {
    const module =
      "// a chart module\n\nexport default async () => {\n  await null;\n  throw new Error('no database');\n};\n";
    const r = await render(chart(module));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /m\/chart\.mjs:5:9: expected a chart module that builds its chart, found an error while building it: no database\.$/m,
    );
    expect(r.err).not.toMatch(/^\s+at /m);
  });

  it('names the line in a TypeScript module (chart.ts) the same way', async () => {
    const module =
      "import type { Chart } from 'cdk8s';\n\nexport default async function (chart: Chart): Promise<void> {\n  const n: number = 1;\n  if (n) throw new Error('no database');\n}\n";
    const charts = writeFiles(repoTempDir('modules-'), { 'm/chart.ts': module });
    const r = await render(charts);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /m\/chart\.ts:5:16: expected a chart module that builds its chart, found an error while building it: no database\.$/m,
    );
  });

  it('names the module and line of a synchronous throw the same way', async () => {
    const module = "export default () => {\n  const n = 1;\n  if (n) throw new Error('no config');\n};\n";
    const r = await render(chart(module));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /m\/chart\.mjs:3:16: expected a chart module that builds its chart, found an error while building it: no config\.$/m,
    );
  });

  it('names the line of the module that called what threw (a construct refusing its props)', async () => {
    const module =
      "import { AppService } from 'specforge';\nexport default async (chart) => {\n  await null;\n  new AppService(chart, 'a', { name: 'Bad Name!' });\n};\n";
    const r = await render(chart(module));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/m\/chart\.mjs:4:3: expected a chart module that builds its chart/);
  });

  it('names the module, without a line, when what it rejected with is no Error', async () => {
    const r = await render(chart("export default async () => { throw 'no database'; };\n"));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /m\/chart\.mjs: expected a chart module that builds its chart, found an error while building it: no database\.$/m,
    );
  });

  it('names the line where a module fails to load', async () => {
    const r = await render(chart('const a = 1;\nnull.x;\nexport default () => {};\n'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/m\/chart\.mjs:2:6: expected a chart module that loads, found an error: /);
  });

  it('awaits an async default export handed to renderCharts in memory, and reports its rejection naming the module', async () => {
    const result = await renderCharts([
      {
        name: 'm',
        dir: 'm',
        specFiles: [],
        moduleFile: 'm/chart.mjs',
        module: async () => {
          await null;
          throw new Error('later');
        },
      },
    ]);
    expect(result.errors).toEqual([
      {
        file: 'm/chart.mjs',
        path: '',
        expected: 'a chart module that builds its chart',
        found: 'an error while building it: later',
      },
    ]);
  });

  it('gives up on an async default export that never settles, after the time limit', () => {
    const charts = chart('export default () => new Promise(() => {});\n');
    const r = validateIn(charts, '500');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('building the chart did not finish within 0.5 s');
  });

  it('gives up on a module whose top-level await never settles, with an error, after the time limit', () => {
    const charts = chart('await new Promise(() => {});\nexport default () => {};\n');
    const r = validateIn(charts, '500');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('loading it did not finish within 0.5 s');
  });

  it('stops a module that never returns (an endless loop) after the time limit, naming it', () => {
    const charts = chart('export default () => { for (;;) {} };\n');
    const r = validateIn(charts, '1000');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /m\/chart\.mjs: expected a chart module that finishes, found it ran longer than 1 s/,
    );
  });

  it('reports a process.exit from a timer a module left behind, instead of ending the command', async () => {
    const module =
      'export default async () => {\n  setTimeout(() => process.exit(0), 0);\n  await new Promise((done) => setTimeout(done, 200));\n};\n';
    const r = await render(chart(module));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(stopped(0));
    expect(existsSync(r.dist)).toBe(false);
  });

  it('reports a promise a module left rejected, naming the module and line, instead of rendering as if nothing happened', async () => {
    const r = await render(chart("export default () => { Promise.reject(new Error('lost')); };\n"));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /m\/chart\.mjs:1:39: expected a chart module that leaves no error unhandled, found an unhandled error: lost/,
    );
  });

  it('takes a time limit too large for a timer as the largest one, not as an instant timeout', () => {
    const r = validateIn(chart(configMap('settings')), '1e10');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it.each(['../../../escape', 'a/b', '..'])(
    'refuses an object named %j, writing nothing anywhere',
    async (name) => {
      const r = await render(chart(configMap(name)));
      expect(r.code).toBe(1);
      expect(r.err).toContain('metadata.name: expected a ConfigMap name: a DNS subdomain (RFC 1123)');
      expect(existsSync(r.dist)).toBe(false);
      expect(readdirSync(join(r.dist, '..'))).toEqual([]);
    },
  );

  it.each(['Bad Name!', 'UPPER', 'a..b'])(
    'refuses a ConfigMap named %j, which the API server refuses (a DNS subdomain is expected), naming the module',
    async (name) => {
      const r = await render(chart(configMap(name)));
      expect(r.code).toBe(1);
      expect(r.err).toContain(
        `m/chart.mjs (ConfigMap/${name}) metadata.name: expected a ConfigMap name: a DNS subdomain (RFC 1123)`,
      );
      expect(existsSync(r.dist)).toBe(false);
    },
  );

  it('refuses a name too long for its file in dist/, instead of failing while writing', async () => {
    const r = await render(chart(configMap('a'.repeat(250))));
    expect(r.code).toBe(1);
    expect(r.err).toContain('expected a name short enough for its file in dist/');
  });

  it('refuses a namespace on a cluster-scoped kind, known from the API server discovery data', async () => {
    const module = `import { ApiObject } from 'cdk8s';\nexport default (chart) => { new ApiObject(chart, 'r', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'reader' }, rules: [] }); };\n`;
    const r = await render(chart(module, { 'm/chart.yaml': 'namespace: team\n' }));
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      '(ClusterRole team/reader) metadata.namespace: expected no namespace (ClusterRole is cluster-scoped)',
    );
  });

  it('takes the scope of a custom kind from its CRD in the render', async () => {
    const module = `import { ApiObject } from 'cdk8s';
export default (chart) => {
  new ApiObject(chart, 'crd', { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com', namespace: undefined },
    spec: { group: 'example.com', scope: 'Cluster', names: { kind: 'Widget', plural: 'widgets' }, versions: [] } });
  new ApiObject(chart, 'w', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'team' } });
};\n`;
    const r = await render(chart(module));
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      '(Widget team/w) metadata.namespace: expected no namespace (Widget is cluster-scoped)',
    );
  });

  it('renders a well-behaved module', async () => {
    const r = await render(chart(configMap('settings')));
    expect(r.err).toBe('');
    expect(readdirSync(join(r.dist, 'm')).sort()).toEqual(['configmap.settings.yaml', 'kustomization.yaml']);
  });
});
