import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { readTree } from '../../src/output/dist-writer.js';
import { tempDir } from '../support/tmp.js';

/**
 * The construct door as a new user meets it: the packed package (`npm pack`) installed into a fresh copy of
 * examples/cdk8s-app with cdk8s, run with the project's own Node. `cdk8s synth` must give namespaced, alias-free
 * YAML holding the objects `specforge render` makes of the same chart as spec files, the example's snapshot test
 * must pass there, and its TypeScript must type-check against the published types.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const EXAMPLE = join(ROOT, 'examples/cdk8s-app');
// The project's Node (node_modules/.bin/node, Node 24 LTS) first on PATH, for npm, npx and the app alike.
const env = {
  ...process.env,
  PATH: `${join(ROOT, 'node_modules/.bin')}${delimiter}${process.env.PATH ?? ''}`,
  CI: 'true',
  npm_config_update_notifier: 'false',
};

let app: string;

function sh(cmd: string, args: readonly string[], cwd = app): { code: number; out: string } {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 240_000 });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

function ok(cmd: string, args: readonly string[], cwd = app): string {
  const r = sh(cmd, args, cwd);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.code}:\n${r.out}`);
  return r.out;
}

const objectsOf = (texts: readonly string[]): any[] =>
  texts.flatMap((t) => parseAllDocuments(t).map((d) => d.toJS())).filter((o) => o !== null);
const key = (o: any): string => `${o.kind} ${o.metadata?.namespace ?? '-'}/${o.metadata?.name}`;
const sorted = (objects: any[]): any[] => [...objects].sort((a, b) => (key(a) < key(b) ? -1 : 1));

beforeAll(() => {
  const root = tempDir();
  const packed =
    ok('npm', ['pack', '--silent', '--pack-destination', root], ROOT).trim().split('\n').pop() ?? '';
  app = join(root, 'app');
  cpSync(EXAMPLE, app, {
    recursive: true,
    filter: (src) => !/[/\\](node_modules|dist|cdk8s\.out|rendered)$/.test(src),
  });
  const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
  pkg.dependencies.specforge = `file:${join(root, packed)}`;
  writeFileSync(join(app, 'package.json'), JSON.stringify(pkg, null, 2));
  ok('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error']);
}, 300_000);

describe('examples/cdk8s-app with the packed package', () => {
  it('runs on the project Node', () => {
    expect(ok('node', ['--version']).trim()).toMatch(/^v2[4-9]\./);
  });

  it('synthesises with cdk8s: namespaced, no anchors or aliases, the objects of the same chart as spec files', () => {
    ok('npx', ['cdk8s', 'synth']);
    const text = readFileSync(join(app, 'cdk8s.out/shop.k8s.yaml'), 'utf8');
    expect(text).not.toMatch(/(^|[\s:-])[&*][A-Za-z0-9_-]+\s*$/m);
    const synthesised = objectsOf([text]);
    expect(synthesised.map((o) => o.kind).sort()).toEqual([
      'Deployment',
      'Deployment',
      'Ingress',
      'Namespace',
      'Service',
      'Service',
    ]);
    for (const o of synthesised.filter((x) => x.kind !== 'Namespace'))
      expect(o.metadata.namespace).toBe('shop');

    ok('npx', ['specforge', 'render', 'specs', '--out', 'rendered']);
    const files = readdirSync(join(app, 'rendered/shop')).filter((f) => f !== 'kustomization.yaml');
    const rendered = objectsOf(files.map((f) => readFileSync(join(app, 'rendered/shop', f), 'utf8')));
    expect(sorted(synthesised)).toEqual(sorted(rendered));
  });

  it('keeps every file specforge rendered into dist/ when cdk8s synth runs, as a new user would run both', () => {
    ok('npx', ['specforge', 'render', 'specs']);
    const before = readTree(join(app, 'dist'));
    expect(before.size).toBeGreaterThan(1);
    ok('npx', ['cdk8s', 'synth']);
    expect(readTree(join(app, 'dist'))).toEqual(before);
  });

  it("passes the example's own snapshot test", () => {
    const r = sh('npx', ['vitest', 'run']);
    expect(r.out).toMatch(/Tests\s+.*3 passed/);
    expect(r.code).toBe(0);
  });

  it('type-checks against the published types, specforge/testing included', () => {
    expect(sh('npx', ['tsc', '--noEmit']).code).toBe(0);
  });

  it('refuses a broken chart at synth, with the spec-file wording', () => {
    const shop = readFileSync(join(app, 'shop.ts'), 'utf8');
    writeFileSync(
      join(app, 'shop.ts'),
      shop.replace('servicePort: 80,', 'servicePort: 80, containerPort: 0,'),
    );
    try {
      const r = sh('npx', ['cdk8s', 'synth']);
      expect(r.code).not.toBe(0);
      expect(r.out).toContain('containerPort: expected an integer from 1 to 65535, found 0.');
    } finally {
      writeFileSync(join(app, 'shop.ts'), shop);
    }
  });
});
