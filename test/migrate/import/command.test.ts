import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { closedPortKubeconfig, fakeApi } from '../../support/fake-api.js';
import { run, tempDir, writeFiles } from '../../support/tmp.js';

/** A chart that renders, with one spec of a seed operator's kind, in `d`. */
function chartAt(d: string): string {
  writeFiles(d, {
    'shop/app.yaml':
      'apiVersion: quay.io/v1alpha1\nkind: Podroute\nmetadata:\n  name: hello\n  namespace: team\nspec:\n  image: hello:1\n',
  });
  return join(d, 'shop');
}

function adoptArgs(kubeconfig: string, ...rest: string[]): string[] {
  return ['--field-manager', 'kustomize-controller', '--kubeconfig', kubeconfig, ...rest];
}

describe('specforge import and adopt on the command line', () => {
  it.each([
    [['import', '-n', 'x'], 'import needs --chart DIR'],
    [['import', '--chart', 'c'], 'import needs either -n NAMESPACE (repeatable) or --all-namespaces'],
    [
      ['import', '--chart', 'c', '-n', 'x', '-A'],
      'import needs either -n NAMESPACE (repeatable) or --all-namespaces',
    ],
    [['import', '--chart', 'c', '-A', '--format', 'yaml'], '--format takes text or json, got "yaml"'],
    [['import', '--chart', 'c', '-n', ''], '-n "" is empty: expected a namespace name'],
    [['import', '--chart', 'c', '-n', 'team-a', '-n', ''], '-n "" is empty'],
    [['import', '--chart', 'c', '--namespace='], '-n "" is empty'],
    [
      ['import', '--chart', 'c', '-n', 'Team_A'],
      '-n "Team_A" is not a namespace name: expected a DNS-1123 label',
    ],
    [['import', '--chart', 'c', '-n', 'a'.repeat(64)], 'is not a namespace name'],
    [['import', '--chart', 'c', '-n', '../x'], '-n "../x" is not a namespace name'],
    [['import', '--chart', '', '-A'], '--chart "" is empty'],
    [['import', '--chart', 'c', '-A', '--kubeconfig', ''], '--kubeconfig "" is empty'],
    [['import', '--chart', 'c', '-A', '--context', ''], '--context "" is empty'],
    [['adopt', 'apply', '--field-manager', 'f', '--operator-gone'], 'adopt needs --chart DIR'],
    [
      ['adopt', 'plan', '--chart', 'c', '--field-manager', 'f', '--operator-gone', '--kubeconfig', ''],
      '--kubeconfig "" is empty',
    ],
    [
      ['adopt', 'plan', '--chart', 'c', '--field-manager', 'f', '--operator-gone', '--context', ''],
      '--context "" is empty',
    ],
    [['adopt', 'go', '--chart', 'c'], 'adopt takes plan or apply, got "go"'],
    [['adopt', 'plan', '--chart', 'c', '--operator-gone'], 'adopt needs --field-manager NAME'],
    [['adopt', 'plan', '--chart', 'c', '--field-manager', 'f'], 'adopt needs --operator NS/DEPLOYMENT'],
    [
      ['adopt', 'plan', '--chart', 'c', '--field-manager', 'f', '--operator', 'op'],
      '--operator takes NAMESPACE/NAME, got "op"',
    ],
  ])('refuses %j as a usage error: %s', async (argv, message) => {
    const r = await run(argv);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('prints its help', async () => {
    expect((await run(['import', '--help'])).out).toContain('Usage: specforge import --chart DIR');
    expect((await run(['adopt', '--help'])).out).toContain('Usage: specforge adopt plan|apply');
  });

  it('names the kubeconfig it cannot read, with no stack trace', async () => {
    const r = await run(['import', '--chart', 'c', '-A', '--kubeconfig', '/nonexistent/kubeconfig']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^specforge: .*\/nonexistent\/kubeconfig/);
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it.each([
    [
      'import',
      (kubeconfig: string, d: string) => [
        'import',
        '--chart',
        join(d, 'c'),
        '-A',
        '--kubeconfig',
        kubeconfig,
      ],
    ],
    [
      'adopt plan',
      (kubeconfig: string, d: string) => [
        'adopt',
        'plan',
        '--chart',
        chartAt(d),
        ...adoptArgs(kubeconfig, '--operator-gone'),
      ],
    ],
    [
      'adopt plan --operator',
      (kubeconfig: string, d: string) => [
        'adopt',
        'plan',
        '--chart',
        chartAt(d),
        ...adoptArgs(kubeconfig, '--operator', 'ops/old'),
      ],
    ],
    [
      'adopt apply',
      (kubeconfig: string, d: string) => [
        'adopt',
        'apply',
        '--chart',
        chartAt(d),
        ...adoptArgs(kubeconfig, '--operator-gone'),
      ],
    ],
  ])('%s names the API server it cannot reach and what to check, in words, exit 2', async (_, argv) => {
    const { url, kubeconfig } = await closedPortKubeconfig();
    const r = await run(argv(kubeconfig, tempDir()));
    expect(r.err).toMatch(
      new RegExp(
        `^specforge: cannot reach the API server ${url.replace(/\./g, '\\.')} \\(nothing listens there\\): check the server of the kubeconfig context in use \\(--kubeconfig, KUBECONFIG, --context\\) and that the cluster is up; [^\n]+\\.$`,
      ),
    );
    expect(r.err).not.toContain('ECONNREFUSED');
    expect(r.code).toBe(2);
  });

  it.skipIf(!existsSync('/proc/self'))(
    'names a chart directory the file system makes no directory for (/proc) in a sentence, exit 2',
    async () => {
      const crd = load(readFileSync('test/fixtures/seed-crds/podroutes.quay.io.yaml', 'utf8'));
      const cr = {
        apiVersion: 'quay.io/v1alpha1',
        kind: 'Podroute',
        metadata: { name: 'hello', namespace: 'team' },
        spec: { image: 'hello:1' },
      };
      const api = await fakeApi([crd as Record<string, unknown>], [cr]);
      try {
        const r = await run(['import', '--chart', '/proc/x', '-n', 'team', '--kubeconfig', api.kubeconfig]);
        expect(r.err).toBe(
          'specforge: cannot write into /proc/x: read-only file system (/proc/x); nothing was imported',
        );
        expect(r.code).toBe(2);
      } finally {
        await api.close();
      }
    },
  );
});
