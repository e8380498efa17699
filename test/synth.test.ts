/**
 * `npm run synth` prints no Node.js stack trace: not on a machine that cannot reach the npm registry (cdk8s-cli's
 * update check fetches the latest version in a child process, which prints its stack trace offline), and not when a
 * spec is wrong (cdk8s-cli prints the stack of "command returned a non-zero exit code" when its app fails). The tests
 * run the script's own line after the build, in a project of the repository's bin/, lib/ (built), node_modules and
 * cdk8s.yaml with charts of their own, with a home of its own (no cached answer in ~/.cdk8s-cli.version) and every
 * HTTP request sent to a port where nothing listens.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from './support/tmp.js';

const ROOT = resolve(import.meta.dirname, '..');
const SYNTH = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { synth: string } })
  .scripts.synth;
const BUILD = 'npm run build && ';
const SPEC =
  'apiVersion: quay.io/v1alpha1\nkind: Podroute\nmetadata:\n  name: hello\nspec:\n  image: hello:1\n';

/** A project like the repository, with `spec` as its one chart's spec. */
function project(spec: string): string {
  const dir = writeFiles(tempDir(), {
    'charts/hello/hello.yaml': spec,
    'cdk8s.yaml': readFileSync(join(ROOT, 'cdk8s.yaml'), 'utf8'),
  });
  for (const entry of ['bin', 'lib', 'node_modules', 'package.json'])
    symlinkSync(join(ROOT, entry), join(dir, entry));
  return dir;
}

/** Runs `command` in `dir`, as `npm run` would, with the npm registry out of reach. */
function offline(dir: string, command: string): { status: number | null; output: string } {
  const unreachable = 'http://127.0.0.1:9';
  const r = spawnSync('sh', ['-c', command], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 180_000,
    env: {
      ...process.env,
      HOME: dir,
      // As `npm run` does: the project's own binaries (cdk8s, and its Node.js 24) first.
      PATH: `${join(ROOT, 'node_modules/.bin')}${delimiter}${process.env.PATH ?? ''}`,
      NODE_USE_ENV_PROXY: '1',
      HTTP_PROXY: unreachable,
      HTTPS_PROXY: unreachable,
      http_proxy: unreachable,
      https_proxy: unreachable,
      NO_PROXY: '',
      no_proxy: '',
    },
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('npm run synth', () => {
  const afterBuild = SYNTH.startsWith(BUILD) ? SYNTH.slice(BUILD.length) : SYNTH;

  it('builds, then runs cdk8s synth through cdk8s.yaml', () => {
    expect(SYNTH.startsWith(BUILD)).toBe(true);
    expect(afterBuild).toMatch(/(^|&& )cdk8s synth\b[^&]*$/);
  });

  it('renders into dist/ offline, with no Node.js stack trace and no word of a cdk8s-cli upgrade', () => {
    const dir = project(SPEC);
    // cdk8s synth without the script's flags shows the failure guarded against: the registry really is out of reach.
    expect(offline(dir, 'cdk8s synth').output).toMatch(/\n\s+at /);
    const r = offline(dir, afterBuild);
    expect(r.status, r.output).toBe(0);
    expect(r.output).toContain('Synthesizing application');
    expect(r.output).not.toMatch(/\n\s+at /);
    expect(r.output).not.toContain('new version');
    expect(existsSync(join(dir, 'dist/hello/podroute.hello.yaml'))).toBe(true);
  });

  it('names the wrong spec and stops, with no Node.js stack trace', () => {
    const dir = project(SPEC.replace('image: hello:1', 'image: hello:1\n  replicas: many'));
    expect(offline(dir, 'cdk8s synth --no-check-upgrade').output).toMatch(/\n\s+at /);
    const r = offline(dir, afterBuild);
    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(/charts\/hello\/hello\.yaml:\d+:\d+ \(document 1\) spec\.replicas: expected /);
    expect(r.output).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, 'dist'))).toBe(false);
  });

  it('stops with one sentence, not a stack trace, when dist cannot be written (the app cdk8s runs, lib/synth.js)', () => {
    const dir = project(SPEC);
    writeFileSync(join(dir, 'dist'), 'a file where the output directory should be\n');
    const r = spawnSync(process.execPath, [join(ROOT, 'lib/synth.js')], { cwd: dir, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^specforge: .*dist/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(join(dir, 'dist'), 'utf8')).toBe('a file where the output directory should be\n');
  });
});
