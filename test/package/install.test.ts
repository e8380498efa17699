import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oldestAllowedNode, projectNode } from '../support/node-binaries.js';
import { tempDir, writeFiles } from '../support/tmp.js';

/**
 * The package as a user gets it: packed from a clean clone of this repository (its committed HEAD: `npm ci`, then
 * `npm pack`, whose prepack builds lib/), installed into a fresh project of the user's — a package.json without
 * `"type": "module"` — on the oldest Node `engines` allows (20.19+, from the npm registry's `node` package, not the
 * machine's: test/support/node-binaries.ts) and on Node 24 (the project's own, node_modules/node), each with an npm
 * run by that Node, then rendering a chart module in
 * TypeScript with the installed command. Slow (one registry install per Node); it reads nothing outside the clone
 * and the temporary projects.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const MINUTES = 60_000;

/** An environment for a user's shell with `nodeDir` first on PATH: none of this run's npm or node_modules/.bin. */
function userEnv(nodeDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_|node_options$|vitest|init_cwd$)/i.test(key)) env[key] = value;
  }
  const path = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((d) => d !== '' && !d.includes('node_modules'));
  env.PATH = [nodeDir, ...path].join(delimiter);
  return env;
}

/** The first `name` on PATH outside any node_modules: what the machine has, not what this project installed. */
function onMachinePath(name: string): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '' || dir.includes('node_modules')) continue;
    if (existsSync(join(dir, name))) return realpathSync(join(dir, name));
  }
  throw new Error(`no ${name} on PATH outside node_modules`);
}

/** npm's own entry point, run below by each Node in turn (the machine's npm is a script for any Node). */
const NPM_CLI = onMachinePath('npm');

function run(node: string, args: readonly string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(node, args, {
    cwd,
    env: userEnv(dirname(node)),
    encoding: 'utf8',
    timeout: 8 * MINUTES,
    maxBuffer: 64 * 1024 * 1024,
  });
}

function npm(node: string, args: readonly string[], cwd: string): SpawnSyncReturns<string> {
  return run(node, [NPM_CLI, ...args, '--no-fund', '--no-audit'], cwd);
}

const said = (r: SpawnSyncReturns<string>): string => `${r.stdout}${r.stderr}${r.error?.message ?? ''}`;

/** The Node lines `engines` allows: `^20.19.0 || >=22.12.0` (asserted below against package.json). */
function supported(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return (major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major >= 23;
}

function versionOf(node: string): string {
  return spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
}

const OLDEST = oldestAllowedNode(ROOT);
const NODES = [
  { name: `the oldest Node the package allows (${OLDEST.version})`, node: OLDEST.bin },
  { name: "Node 24 (the project's own)", node: projectNode(ROOT).bin },
];

/** A chart module as a user writes it: TypeScript (types, an enum), importing the package by name. */
const CHART_MODULE = `import type { Chart } from 'cdk8s';
import { AppService } from 'specforge';

enum Port {
  Http = 80,
}

export default function (chart: Chart): void {
  new AppService(chart, 'web', { image: 'nginx:1.27', replicas: 2, ports: [{ port: Port.Http }] });
}
`;

const FAILING_MODULE = `import type { Chart } from 'cdk8s';

export default function (chart: Chart): void {
  const name: string = chart.node.id;
  throw new Error(\`no pool for \${name}\`);
}
`;

describe('the package, packed from a clean clone and installed into a fresh project', () => {
  let tarball = '';
  let listing: string[] = [];
  let ciOutput = '';

  /** The clone, the tarball and the users' projects: hundreds of MB, removed when done. */
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  }, 5 * MINUTES); // hundreds of MB: longer than vitest's 10 s default on a busy machine

  beforeAll(() => {
    const work = tempDir('specforge-package-');
    made.push(work);
    const clone = join(work, 'clone');
    const cloned = spawnSync('git', ['clone', '--quiet', ROOT, clone], { encoding: 'utf8' });
    expect(cloned.status, said(cloned)).toBe(0);
    const ci = npm(OLDEST.bin, ['ci', '--prefer-offline'], clone);
    expect(ci.status, said(ci)).toBe(0);
    ciOutput = said(ci);
    const packed = npm(OLDEST.bin, ['pack', '--pack-destination', work], clone);
    expect(packed.status, said(packed)).toBe(0);
    const name = readdirSync(work).find((f) => f.endsWith('.tgz'));
    expect(name, said(packed)).toBeDefined();
    tarball = join(work, name ?? '');
    const tar = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
    listing = tar.stdout.split('\n').filter((l) => l !== '');
  }, 15 * MINUTES);

  it("installs the repository's own dependencies (npm ci) on the oldest Node it allows with no engine warning", () => {
    expect(ciOutput).not.toContain('EBADENGINE');
  });

  it('holds the built code, the command and the schemas (prepack builds lib/)', () => {
    expect(listing).toEqual(
      expect.arrayContaining([
        'package/lib/index.js',
        'package/lib/cli.js',
        'package/lib/render/render-worker.js',
        'package/bin/specforge.js',
        'package/schemas/appservice.schema.json',
      ]),
    );
  });

  it('declares the Node lines these tests hold to', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    expect(manifest.engines.node).toBe('^20.19.0 || >=22.12.0');
    expect(versionOf(NODES[1]?.node ?? '')).toMatch(/^v24\./);
  });

  for (const { name, node } of NODES) {
    it(
      `installs on ${name} with no engine warning and renders a chart.ts in a project without "type": "module"`,
      () => {
        expect(supported(versionOf(node)), versionOf(node)).toBe(true);
        const project = tempDir('specforge-user-');
        made.push(project);
        writeFiles(project, {
          'package.json': '{\n  "name": "my-gitops",\n  "version": "1.0.0",\n  "private": true\n}\n',
          'charts/web/chart.ts': CHART_MODULE,
        });

        const install = npm(node, ['install', tarball], project);
        expect(install.status, said(install)).toBe(0);
        expect(said(install)).not.toContain('EBADENGINE');

        const render = run(node, ['node_modules/.bin/specforge', 'render'], project);
        expect({ status: render.status, stderr: render.stderr }, said(render)).toEqual({
          status: 0,
          stderr: '',
        });
        expect(render.stdout).toContain('rendered 2 objects from 1 chart');
        const deployment = readFileSync(join(project, 'dist', 'web', 'deployment.web.yaml'), 'utf8');
        expect(deployment).toContain('replicas: 2');
        expect(deployment).toContain('containerPort: 80');

        writeFiles(project, { 'charts/pools/chart.ts': FAILING_MODULE });
        const failed = run(node, ['node_modules/.bin/specforge', 'render'], project);
        expect(failed.status, said(failed)).toBe(1);
        expect(failed.stderr).toContain(
          'charts/pools/chart.ts:5:9: expected a chart module that builds its chart, found an error while building it: no pool for pools.',
        );
        expect(failed.stderr).not.toMatch(/^\s+at /m);
      },
      10 * MINUTES,
    );
  }
});
