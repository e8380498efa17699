/**
 * bin/specforge.js, the installed entry point, as a user's shell runs it (the built lib/ behind it): the version
 * and help of the package it belongs to, and one sentence instead of a stack trace when its code cannot load.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modulesLoadedBy } from './support/modules-loaded.js';
import { tempDir, writeFiles } from './support/tmp.js';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin/specforge.js');

function specforge(
  args: readonly string[],
  bin = BIN,
): { status: number | null; stdout: string; stderr: string } {
  // From another directory: what the command reads of its own package is found relative to itself.
  return spawnSync(process.execPath, [bin, ...args], { cwd: tempDir(), encoding: 'utf8', timeout: 60_000 });
}

describe('bin/specforge.js', () => {
  it('prints the version of its own package, from any working directory', () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(specforge(['--version'])).toMatchObject({ status: 0, stdout: `${version}\n`, stderr: '' });
  });

  it("prints a command's own usage for --help, and a short usage error otherwise", () => {
    expect(specforge(['render', '--help'])).toMatchObject({ status: 0, stderr: '' });
    expect(specforge(['render', '--help']).stdout).toMatch(/^Usage: specforge render /);
    expect(specforge(['render', '--nope'])).toMatchObject({
      status: 2,
      stdout: '',
      stderr: expect.stringMatching(
        /^specforge: unknown option --nope\nRun 'specforge render --help' for usage\.\n$/,
      ),
    });
  });

  // process.execve: Node.js 22.15 and later (not 23.0-23.10), not on Windows; elsewhere the command runs as it is.
  it.skipIf(typeof process.execve !== 'function')(
    'starts itself again in the same process with 16 MB semi-spaces, a slower-growing heap, one V8 helper thread on two cores and its environment, unless told otherwise',
    () => {
      // A preloaded probe, kept across the restart (it is on the node command line), says where it ended up.
      const probe = join(tempDir(), 'probe.cjs');
      writeFileSync(
        probe,
        "process.on('exit', () => process.stderr.write(`${process.pid} ${process.env.PROBE_VALUE} ${process.execArgv.join(' ')}\\n`));\n",
      );
      const run = (env: NodeJS.ProcessEnv, args = ['--version']) =>
        spawnSync(process.execPath, ['--require', probe, BIN, ...args], {
          cwd: tempDir(),
          encoding: 'utf8',
          timeout: 60_000,
          env: { ...process.env, PROBE_VALUE: 'kept', ...env },
        });
      // one V8 helper thread on one or two cores
      const pool = availableParallelism() <= 2 ? ' --v8-pool-size=1' : '';
      const restarted = run({ NODE_OPTIONS: '' });
      expect(restarted.status).toBe(0);
      expect(restarted.stderr).toBe(
        `${restarted.pid} kept --max-semi-space-size=16 --heap-growing-percent=60${pool} --require ${probe}\n`,
      );
      // a pool size of the user's own: the heap flags, not the pool's
      const ownPool = run({ NODE_OPTIONS: '--v8-pool-size=3' });
      expect(ownPool.stderr).toBe(
        `${ownPool.pid} kept --max-semi-space-size=16 --heap-growing-percent=60 --require ${probe}\n`,
      );
      // A size or growth of the user's own, and the long-lived controller: no restart.
      const own = run({ NODE_OPTIONS: '--max-semi-space-size=8' });
      expect(own.stderr).toBe(`${own.pid} kept --require ${probe}\n`);
      const growth = spawnSync(
        process.execPath,
        ['--heap-growing-percent=20', '--require', probe, BIN, '--version'],
        { encoding: 'utf8', timeout: 60_000, env: { ...process.env, PROBE_VALUE: 'kept', NODE_OPTIONS: '' } },
      );
      expect(growth.stderr).toBe(`${growth.pid} kept --heap-growing-percent=20 --require ${probe}\n`);
      const controller = run({ NODE_OPTIONS: '' }, ['controller', '--help']);
      expect(controller.stderr).toBe(`${controller.pid} kept --require ${probe}\n`);
    },
  );

  // module.enableCompileCache: Node.js 22.8 and later. Not on Windows, whose temporary directory is not TMPDIR.
  it.skipIf(typeof nodeModule.enableCompileCache !== 'function' || process.platform === 'win32')(
    "keeps its compiled code in Node's compile cache (NODE_COMPILE_CACHE, else the temporary directory's), but not in CI unless NODE_COMPILE_CACHE is set, when told not to, while collecting coverage, or for the controller",
    () => {
      // Files in a directory, none when it is missing (the temporary directory holds tsx's cache too).
      const cached = (dir: string): number =>
        existsSync(dir)
          ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length
          : 0;
      const run = (env: NodeJS.ProcessEnv, args = ['validate', join(ROOT, 'charts')]) =>
        spawnSync(process.execPath, [BIN, ...args], {
          cwd: tempDir(),
          encoding: 'utf8',
          timeout: 60_000,
          // No node options of the caller's (a semi-space size there would skip the restart), and not in CI.
          env: { ...withoutCompileCache(process.env), NODE_OPTIONS: '', CI: '', ...env },
        });
      const temp = tempDir();
      expect(run({ TMPDIR: temp }).status).toBe(0);
      // specforge's modules and those of its dependencies it loaded (yaml, cdk8s, ...): many more than a few.
      expect(cached(join(temp, 'node-compile-cache'))).toBeGreaterThan(50);
      // Not in CI.
      const ci = tempDir();
      expect(run({ TMPDIR: ci, CI: 'true' }).status).toBe(0);
      expect(cached(join(ci, 'node-compile-cache'))).toBe(0);
      // Node's own variables, which specforge leaves to Node (the README's promises): NODE_COMPILE_CACHE names the
      // directory, in CI too; NODE_DISABLE_COMPILE_CACHE turns it off. These fail if specforge names a directory of
      // its own or writes a cache by another way.
      const named = tempDir();
      expect(run({ NODE_COMPILE_CACHE: named }).status).toBe(0);
      expect(cached(named)).toBeGreaterThan(50);
      const kept = tempDir();
      expect(run({ TMPDIR: ci, CI: 'true', NODE_COMPILE_CACHE: kept }).status).toBe(0);
      expect(cached(kept)).toBeGreaterThan(50);
      const disabled = tempDir();
      expect(run({ TMPDIR: disabled, NODE_DISABLE_COMPILE_CACHE: '1' }).status).toBe(0);
      expect(cached(join(disabled, 'node-compile-cache'))).toBe(0);
      const coverage = tempDir();
      expect(run({ TMPDIR: coverage, NODE_V8_COVERAGE: join(coverage, 'coverage') }).status).toBe(0);
      expect(cached(join(coverage, 'node-compile-cache'))).toBe(0);
      const controller = tempDir();
      expect(run({ TMPDIR: controller }, ['controller', '--help']).status).toBe(0);
      expect(cached(join(controller, 'node-compile-cache'))).toBe(0);
    },
  );

  it('says in one line, without a stack trace, that its code is missing (a checkout not built)', () => {
    const copy = join(tempDir(), 'bin');
    mkdirSync(copy);
    copyFileSync(BIN, join(copy, 'specforge.js'));
    const r = specforge(['--version'], join(copy, 'specforge.js'));
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /^specforge: cannot load its code \(lib\/cli\.js; run `npm run build` in a checkout\): .+\n$/,
    );
    expect(r.stdout).toBe('');
  });
});

// module.registerHooks: Node.js 22.15 and later (the project's own runtime is 24).
describe.skipIf(!('registerHooks' in nodeModule))('specforge validate in a fresh process', () => {
  it('compiles no JSON Schema and loads neither diff, migration, the Kubernetes client, yaml nor cdk8s-plus-27', () => {
    const charts = writeFiles(tempDir(), {
      'shop/web.yaml':
        'apiVersion: apps.specforge.dev/v1alpha1\nkind: AppService\nmetadata:\n  name: web\nspec:\n  image: nginx\n  ports:\n    - port: 80\n',
    });
    const { status, stdout, urls } = modulesLoadedBy(['validate', charts]);
    expect(status).toBe(0);
    expect(stdout).toMatch(/is valid \(1 chart, 2 objects\)/);
    const loaded = (pattern: RegExp): string[] => urls.filter((u) => pattern.test(u));
    // The validators were compiled at build time: of ajv only its small run-time helpers load.
    expect(loaded(/\/node_modules\/ajv\/(?!dist\/runtime\/)/)).toEqual([]);
    expect(loaded(/\/lib\/(migrate|kube|controller)\//)).toEqual([]);
    expect(loaded(/\/lib\/diff\/(?!report\/escape\.js)/)).toEqual([]);
    expect(loaded(/\/node_modules\/(diff|cdk8s-plus-27)\//)).toEqual([]);
    // cdk8s brings its own copy of yaml; specforge's loads only to locate a problem.
    expect(loaded(/(?<!cdk8s)\/node_modules\/yaml\//)).toEqual([]);
    // The check is not vacuous: the render's own modules and cdk8s were recorded.
    expect(loaded(/\/lib\/specs\/generated\/schema-validators\.js$/)).toHaveLength(1);
    expect(loaded(/\/node_modules\/cdk8s\/lib\//).length).toBeGreaterThan(0);
  });

  it('loads yaml when a problem must be located, and still names its line', () => {
    const charts = writeFiles(tempDir(), {
      'shop/web.yaml':
        'apiVersion: apps.specforge.dev/v1alpha1\nkind: AppService\nmetadata:\n  name: web\nspec:\n  image: nginx\n  replicas: -1\n  ports:\n    - port: 80\n',
    });
    const { status, stderr, urls } = modulesLoadedBy(['validate', charts]);
    expect(status).toBe(1);
    expect(stderr).toMatch(/shop\/web\.yaml:7:13 \(document 1\) spec\.replicas: expected an integer/);
    expect(urls.filter((u) => /(?<!cdk8s)\/node_modules\/yaml\//.test(u)).length).toBeGreaterThan(0);
  });
});

/** The environment without the compile cache's variables (the test run's own, if any). */
function withoutCompileCache(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(([k]) => k !== 'NODE_COMPILE_CACHE' && k !== 'NODE_DISABLE_COMPILE_CACHE'),
  );
}
