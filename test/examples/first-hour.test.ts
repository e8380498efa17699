import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  blockCommands,
  type CommandRun,
  firstHourBlocks,
  runCommand,
  STACK_TRACE,
  userEnv,
  writeBlockFile,
} from '../support/first-hour.js';
import {
  enginesOf,
  lowestMajor,
  type NodeBinary,
  oldestAllowedNode,
  projectNode,
  satisfies,
} from '../support/node-binaries.js';
import { tempDir } from '../support/tmp.js';
import { runGithubPullRequest, runGitlabMergeRequest, type StepResult } from './ci-runner.js';

/**
 * The first hour of a new user, from the README's own text. A `git clone` of this repository's HEAD into an empty
 * folder is packed (`npm pack`); then, in a fresh, empty project outside it, made by `npm init -y`, on the oldest Node
 * the package's `engines` allows and on Node 24 (both from the npm registry's `node` package, never the machine's own:
 * test/support/node-binaries.ts), every block the README marks `<!-- first-hour: SCENARIO -->` is followed in the
 * README's order: a block whose first line names a file is written there, an `sh` block's commands are run one by one
 * with bash (the tarball's real path in place of `/path/to/specforge-0.1.0.tgz`). Scenario `repo` is a GitOps
 * repository of one's own (specs, a chart module in TypeScript, render, check, diff), `cdk8s-app` the cdk8s app of
 * "Use the constructs in your cdk8s app". Every command must exit 0 and print neither a stack trace nor an engine
 * warning. The commands are never restated here: change the README, and this test runs what it now says. The `repo`
 * project then becomes a git repository with a pull request, where the CI recipes of examples/ci/ run as the runners
 * run them (test/examples/ci-runner.ts), with the Node under test first on PATH and the installed tarball as
 * `npx specforge`.
 *
 * The clone gets the project's dependencies by `npm ci` under CI, and otherwise by a link to this checkout's
 * node_modules (the tarball is made of the clone's files either way: only its build tools come from there).
 */

const ROOT = resolve(import.meta.dirname, '../..');
/** The README's blocks (a repository of your own), then the cdk8s app's, from its how-to. */
const BLOCKS = ['README.md', 'docs/how-to/constructs.md'].flatMap((f) =>
  firstHourBlocks(readFileSync(join(ROOT, f), 'utf8')),
);
const PLACEHOLDER = '/path/to/specforge-0.1.0.tgz';
const ENGINES = enginesOf(ROOT);
/** Both from the npm registry's `node` package, whatever Node the machine has (test/support/node-binaries.ts). */
const OLDEST = oldestAllowedNode(ROOT);
const NODE_24 = projectNode(ROOT);
const NODES: NodeBinary[] = [OLDEST, NODE_24];
const GITHUB = readFileSync(join(ROOT, 'examples/ci/github-actions.yml'), 'utf8');
const GITLAB = readFileSync(join(ROOT, 'examples/ci/gitlab-ci.yml'), 'utf8');

let clone: string;
let tarball: string;

beforeAll(() => {
  const root = tempDir('first-hour-');
  clone = join(root, 'specforge');
  const git = spawnSync('git', ['clone', '--quiet', ROOT, clone], { encoding: 'utf8' });
  if (git.status !== 0) throw new Error(`git clone exited ${git.status}: ${git.stderr}`);
  const env = userEnv(NODE_24, ROOT);
  if (process.env.CI === 'true') {
    const ci = runCommand('npm ci --loglevel=error', clone, env);
    expect(ci.code, ci.out).toBe(0);
  } else symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
  const pack = runCommand(`npm pack --silent --pack-destination ${root}`, clone, env);
  expect(pack.code, pack.out).toBe(0);
  tarball = join(root, pack.out.trim().split('\n').pop() ?? '');
}, 600_000);

describe('the README marks the first hour', () => {
  it('has blocks for a repository of your own and for the cdk8s app, installing the packed tarball', () => {
    expect(BLOCKS.filter((b) => b.scenario === 'repo').length).toBeGreaterThanOrEqual(3);
    expect(BLOCKS.filter((b) => b.scenario === 'cdk8s-app').length).toBeGreaterThanOrEqual(3);
    for (const scenario of ['repo', 'cdk8s-app'])
      expect(BLOCKS.filter((b) => b.scenario === scenario && b.text.includes(PLACEHOLDER))).toHaveLength(1);
  });

  it(`runs on the oldest Node the package allows (engines ${ENGINES}) and on Node 24, whatever the machine has`, () => {
    expect(satisfies(ENGINES, OLDEST.version), OLDEST.version).toBe(true);
    expect(Number(OLDEST.version.slice(1).split('.')[0])).toBe(lowestMajor(ENGINES));
    expect(OLDEST.bin.startsWith(join(ROOT, '.cache') + sep), OLDEST.bin).toBe(true);
    expect(NODE_24.version).toMatch(/^v24\./);
  });
});

describe('a clone of the repository', () => {
  it('names no file outside itself: the imports of cdk8s.yaml are in the clone', () => {
    const config = parse(readFileSync(join(clone, 'cdk8s.yaml'), 'utf8')) as { imports?: string[] };
    for (const file of config.imports ?? []) {
      expect(resolve(clone, file).startsWith(clone + sep), file).toBe(true);
      expect(existsSync(resolve(clone, file)), file).toBe(true);
    }
  });

  it('packs a whole package: the built library, the command and the schemas', () => {
    const list = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).stdout.split('\n');
    for (const file of ['package/lib/index.js', 'package/lib/cli.js', 'package/bin/specforge.js'])
      expect(list).toContain(file);
    expect(list.some((f) => f.startsWith('package/schemas/'))).toBe(true);
  });
});

/** Follows the README's blocks of `scenario` in a fresh project (`npm init -y`) on `node`; returns it and the runs. */
function followReadme(scenario: string, node: NodeBinary): { project: string; runs: CommandRun[] } {
  const project = tempDir(`first-hour-${scenario}-`);
  const env = userEnv(node, ROOT);
  // A new project as npm makes it (npm 11 writes "type": "commonjs"): the README may not assume an ES module project.
  const runs: CommandRun[] = [runCommand('npm init -y', project, env)];
  for (const block of BLOCKS.filter((b) => b.scenario === scenario)) {
    if (block.lang !== 'sh') writeBlockFile(project, block);
    else
      for (const command of blockCommands(block))
        runs.push(runCommand(command.replaceAll(PLACEHOLDER, tarball), project, env));
  }
  return { project, runs };
}

/** What the runs printed, stack-trace lines marked so that vitest does not take them for the test's own. */
const report = (runs: readonly CommandRun[]): string =>
  runs.map((r) => `$ ${r.command}\n(exit ${r.code})\n${r.out.replace(/^( +)at /gm, '$1| at ')}`).join('\n');

function expectCleanRuns(runs: readonly CommandRun[]): void {
  expect(runs.length).toBeGreaterThan(0);
  for (const r of runs) {
    expect(r.code, report([r])).toBe(0);
    expect(STACK_TRACE.test(r.out), `a stack trace:\n${report([r])}`).toBe(false);
    expect(r.out.includes('EBADENGINE'), `an engine warning:\n${report([r])}`).toBe(false);
  }
}

/** What the recipe steps printed, stack-trace lines marked as in `report`. */
const recipeReport = (steps: readonly StepResult[]): string =>
  steps
    .map(
      (s) => `[${s.job}/${s.step}] (exit ${s.code})\n${`${s.out}${s.err}`.replace(/^( +)at /gm, '$1| at ')}`,
    )
    .join('\n');

const GIT_USER = {
  GIT_AUTHOR_NAME: 'dev',
  GIT_AUTHOR_EMAIL: 'dev@example.com',
  GIT_COMMITTER_NAME: 'dev',
  GIT_COMMITTER_EMAIL: 'dev@example.com',
};

const objectsIn = (file: string): any[] =>
  parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => d.toJS())
    .filter((o) => o !== null);

describe.each(NODES.map((n) => [n.version, n] as const))('the first hour on Node %s', (_version, node) => {
  describe('a GitOps repository of your own ("In your repository")', () => {
    let project: string;
    let runs: CommandRun[];
    beforeAll(() => ({ project, runs } = followReadme('repo', node)), 600_000);

    it('runs every command the README gives, each exiting 0 with no stack trace and no engine warning', () => {
      expectCleanRuns(runs);
      expect(runs.map((r) => r.command).join('\n')).toMatch(/specforge render[\s\S]*specforge check/);
    });

    it("renders the README's spec and its chart module in TypeScript into dist/", () => {
      expect(readdirSync(join(project, 'dist/shop')).sort()).toEqual([
        'appservice.shop.web.yaml',
        'kustomization.yaml',
      ]);
      const api = readdirSync(join(project, 'dist/api')).filter((f) => f !== 'kustomization.yaml');
      const kinds = api.flatMap((f) => objectsIn(join(project, 'dist/api', f)).map((o) => o.kind));
      expect(kinds.sort()).toEqual(['Deployment', 'Service']);
    });

    /** The README's command that starts `start`, as the runs above ran it. */
    const command = (start: string): string => {
      const found = runs.find((r) => r.command.startsWith(start))?.command;
      expect(found, `the README runs ${start}`).toBeDefined();
      return found ?? '';
    };

    it(
      "makes check and diff exit 1 once a spec changes, and 0 again after render: the README's own commands",
      {
        timeout: 120_000,
      },
      () => {
        const env = userEnv(node, ROOT);
        const web = join(project, 'charts/shop/web.yaml');
        writeFileSync(web, readFileSync(web, 'utf8').replace(/replicas: \d+/, 'replicas: 5'));
        const after = [command('npx specforge check'), command('npx specforge diff')].map((c) =>
          runCommand(c, project, env),
        );
        for (const r of after) {
          expect(r.code, report([r])).toBe(1);
          expect(STACK_TRACE.test(r.out), `a stack trace:\n${report([r])}`).toBe(false);
        }
        expect(after[1]?.out).toContain('replicas');
        expect(runCommand(command('npx specforge render'), project, env).code).toBe(0);
        expectCleanRuns([runCommand(command('npx specforge check'), project, env)]);
      },
    );

    it(
      'as a git repository, runs the CI recipes of examples/ci/: check fails a pull request not re-rendered, and the ' +
        'diff of a re-rendered one is posted',
      { timeout: 600_000 },
      () => {
        const env = userEnv(node, ROOT);
        const path = env.PATH ?? '';
        // The recipes' `node` is the Node under test, their `npx specforge` the tarball installed here.
        expect(runCommand('node --version', project, env).out.trim()).toBe(node.version);
        expect(lstatSync(join(project, 'node_modules/specforge')).isDirectory()).toBe(true);
        const git = (...args: string[]): string =>
          execFileSync('git', args, { cwd: project, env: { ...env, ...GIT_USER }, encoding: 'utf8' }).trim();
        writeFileSync(join(project, '.gitignore'), 'node_modules/\ncomment.md\n');
        git('init', '-q', '-b', 'main');
        git('add', '-A');
        git('commit', '-q', '-m', 'charts and dist');
        const base = git('rev-parse', 'HEAD');
        const web = join(project, 'charts/shop/web.yaml');
        const before = /replicas: (\d+)/.exec(readFileSync(web, 'utf8'))?.[1];
        git('checkout', '-q', '-b', 'scale-web');
        writeFileSync(web, readFileSync(web, 'utf8').replace(/replicas: \d+/, 'replicas: 7'));
        git('commit', '-q', '-am', 'scale web (dist/ not re-rendered)');

        // The spec's file and dist/_provenance.txt (its chart's two digests).
        const stale = /specforge: dist is out of date: 2 changed, 0 missing, 0 stale files\./;
        const ghStale = runGithubPullRequest(GITHUB, project, base, path);
        expect(ghStale.codes, recipeReport(ghStale.steps)).toEqual({ 'check/specforge check': 1 });
        expect(ghStale.steps[0]?.err).toMatch(stale);
        expect(ghStale.posts).toEqual([]);
        const glStale = runGitlabMergeRequest(GITLAB, project, base, path);
        expect(glStale.codes, recipeReport(glStale.steps)).toEqual({ 'specforge-check/specforge-check': 1 });
        expect(glStale.steps[0]?.err).toMatch(stale);
        expect(glStale.posts).toEqual([]);

        expect(runCommand(command('npx specforge render'), project, env).code).toBe(0);
        git('add', '-A');
        git('commit', '-q', '-m', 'render');
        const gh = runGithubPullRequest(GITHUB, project, base, path);
        expect(gh.codes, recipeReport(gh.steps)).toEqual({
          'check/specforge check': 0,
          'comment/specforge diff': 0,
          'comment/Post the comment': 0,
        });
        expect(gh.posts.map((p) => p.command)).toEqual(['gh']);
        const comment = gh.posts[0]?.body ?? '';
        expect(comment).toMatch(
          /^### specforge diff: 1 object differs in 1 chart \(0 added, 0 removed, 1 changed\)\n/,
        );
        expect(comment).toContain(`| \`spec.replicas\` | \`${before}\` | \`7\` |`);
        expect(gh.summary).toBe(comment);
        const gl = runGitlabMergeRequest(GITLAB, project, base, path);
        expect(gl.codes, recipeReport(gl.steps)).toEqual({
          'specforge-check/specforge-check': 0,
          'specforge-diff/specforge-diff': 0,
        });
        expect(gl.posts.map((p) => [p.command, p.body])).toEqual([['curl', comment]]);
        for (const step of [...ghStale.steps, ...glStale.steps, ...gh.steps, ...gl.steps]) {
          expect(STACK_TRACE.test(step.out + step.err), `a stack trace:\n${recipeReport([step])}`).toBe(
            false,
          );
          expect(step.err.includes('EBADENGINE'), `an engine warning:\n${recipeReport([step])}`).toBe(false);
        }
      },
    );
    it(
      "cloned onto a new runner (an empty npm cache), installs with the recipes' own npm ci from the tarball the " +
        'repository keeps, and both recipes pass',
      { timeout: 600_000 },
      () => {
        const env = userEnv(node, ROOT);
        const runner = tempDir('first-hour-runner-');
        const checkout = join(runner, 'checkout');
        execFileSync('git', ['clone', '--quiet', '--branch', 'scale-web', project, checkout]);
        const base = execFileSync('git', ['rev-parse', 'origin/main'], {
          cwd: checkout,
          encoding: 'utf8',
        }).trim();
        // What the README's install line wrote names the tarball inside the repository, never where it was copied from.
        const manifest = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8'));
        expect(manifest.devDependencies?.specforge).toBe('file:vendor/specforge-0.1.0.tgz');
        const lock = JSON.parse(readFileSync(join(checkout, 'package-lock.json'), 'utf8'));
        expect(lock.packages?.['node_modules/specforge']?.resolved).toBe('file:vendor/specforge-0.1.0.tgz');
        expect(existsSync(join(checkout, 'node_modules')), 'a clone has no node_modules').toBe(false);
        const path = env.PATH ?? '';
        const machine = { path, install: true, env: { npm_config_cache: join(runner, 'npm-cache') } };
        const gh = runGithubPullRequest(GITHUB, checkout, base, machine);
        expect(gh.codes, recipeReport(gh.steps)).toEqual({
          'check/Install': 0,
          'check/specforge check': 0,
          'comment/Install': 0,
          'comment/specforge diff': 0,
          'comment/Post the comment': 0,
        });
        execFileSync('git', ['clean', '-qfdx'], { cwd: checkout }); // a new machine for the other recipe too
        const gl = runGitlabMergeRequest(GITLAB, checkout, base, {
          path,
          install: true,
          env: { npm_config_cache: join(runner, 'npm-cache-gitlab') },
        });
        expect(gl.codes, recipeReport(gl.steps)).toEqual({
          'specforge-check/specforge-check': 0,
          'specforge-diff/specforge-diff': 0,
        });
        expect(gl.posts[0]?.body).toContain('| `spec.replicas` |');
      },
    );
  });

  describe('the cdk8s app of "Use the constructs in your cdk8s app"', () => {
    let project: string;
    let runs: CommandRun[];
    beforeAll(() => ({ project, runs } = followReadme('cdk8s-app', node)), 600_000);

    it('installs and synthesises, each command exiting 0 with no stack trace and no engine warning', () => {
      expectCleanRuns(runs);
    });

    it('writes the chart to cdk8s.out/, namespaced', () => {
      const objects = objectsIn(join(project, 'cdk8s.out/shop.k8s.yaml'));
      expect(objects.map((o) => o.kind).sort()).toEqual([
        'Deployment',
        'Deployment',
        'Ingress',
        'Namespace',
        'Service',
        'Service',
      ]);
      for (const o of objects.filter((x) => x.kind !== 'Namespace'))
        expect(o.metadata.namespace).toBe('shop');
    });
  });
});
