/**
 * `npm run synth` on a machine that cannot reach the npm registry: cdk8s-cli's update check must not run (offline
 * it prints a Node.js stack trace from the child process that fetches the latest version). The test runs the
 * script's own `cdk8s synth` line, with a home of its own (no cached answer in ~/.cdk8s-cli.version) and every
 * HTTP request sent to a port where nothing listens.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from './support/tmp.js';

const ROOT = resolve(import.meta.dirname, '..');
const SYNTH = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { synth: string } })
  .scripts.synth;

/** Runs `command` in a cdk8s project whose app only makes its output directory, with the registry unreachable. */
function offline(command: string): { status: number | null; output: string } {
  const dir = writeFiles(tempDir(), {
    'cdk8s.yaml': 'language: typescript\napp: node app.cjs\noutput: out\n',
    'app.cjs': "require('node:fs').mkdirSync('out', { recursive: true });\n",
  });
  const unreachable = 'http://127.0.0.1:9';
  const r = spawnSync('sh', ['-c', command], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
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
  const cdk8s = /(?:^|&&\s*)(cdk8s synth[^&]*)$/.exec(SYNTH)?.[1]?.trim();

  it('runs cdk8s synth last, after the build', () => {
    expect(SYNTH).toMatch(/^npm run build && cdk8s synth\b/);
    expect(cdk8s).toBeDefined();
  });

  it('prints no Node.js stack trace when the npm registry cannot be reached', () => {
    // The same setup without the script's flags shows the failure this guards against, so the registry really is
    // out of reach here.
    const unguarded = offline('cdk8s synth');
    expect(unguarded.output).toMatch(/\n\s+at /);
    const r = offline(cdk8s ?? 'cdk8s synth');
    expect(r.status, r.output).toBe(0);
    expect(r.output).toContain('Synthesizing application');
    expect(r.output).not.toMatch(/\n\s+at /);
    expect(r.output).not.toContain('new version');
  });
});
