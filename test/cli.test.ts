import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempDir, writeFiles } from './support/tmp.js';
import { workspace } from './diff/workspace.js';

const spec =
  'apiVersion: quay.io/v1alpha1\nkind: Podroute\nmetadata:\n  name: hello\nspec:\n  image: hello:1\n';

describe('specforge command line', () => {
  it.each([
    [['explode'], ''],
    [[], ''],
    [['constructor'], ''],
    [['help', 'explode'], ''],
    [['render', '--frobnicate'], 'render '],
    [['render', '/nonexistent/charts'], 'render '],
    [['render', 'a', 'b'], 'render '],
    [['render', 'charts', '--out', ''], 'render '],
    [['validate', 'charts', '--out', 'x'], 'validate '],
    [['check', ''], 'check '],
    [['diff', '--format', 'yaml'], 'diff '],
    [['import', '-n', 'x'], 'import '],
    [['adopt', 'go'], 'adopt '],
  ])(
    'exits 2 on the usage error %j with what was wrong and where the usage is, not the help text',
    async (argv, command) => {
      const r = await run(argv);
      expect(r.code).toBe(2);
      const lines = r.err.split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^specforge: \S/);
      expect(lines[1]).toBe(`Run 'specforge ${command}--help' for usage.`);
      expect(r.out).toBe('');
    },
  );

  it('keeps the sentence of a usage error as it was', async () => {
    expect((await run(['explode'])).err).toMatch(/^specforge: unknown command "explode"\n/);
    expect((await run(['render', 'a', 'b'])).err).toMatch(/^specforge: render takes one CHARTS_DIR, got 2\n/);
    expect((await run(['check', ''])).err).toMatch(
      /^specforge: CHARTS_DIR "" is empty: expected the charts directory/,
    );
  });

  it('prints the version of package.json for --version and -V, and exits 0', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    for (const flag of ['--version', '-V'])
      expect(await run([flag])).toEqual({ code: 0, out: version, err: '' });
  });

  it.each(['render', 'validate', 'check', 'diff', 'import', 'adopt', 'controller'])(
    'prints the own usage of %s for --help, -h and help COMMAND, with its exit codes, and exits 0',
    async (command) => {
      const r = await run([command, '--help']);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(new RegExp(`^Usage: specforge ${command}\\b`));
      expect(r.out).toMatch(/\nExit codes: 0 .*2 usage error\.$/);
      expect(await run([command, '-h'])).toEqual(r);
      expect(await run(['help', command])).toEqual(r);
    },
  );

  it("prints a command's usage for --help among other arguments, even wrong ones, and adopt's for its subcommands", async () => {
    expect((await run(['render', '--frobnicate', 'a', 'b', '--help'])).out).toMatch(
      /^Usage: specforge render /,
    );
    expect((await run(['adopt', 'plan', '--help'])).out).toMatch(/^Usage: specforge adopt plan\|apply/);
    expect((await run(['adopt', 'apply', '-h'])).out).toMatch(/^Usage: specforge adopt plan\|apply/);
    // After `--`, --help is an argument (here a charts directory), not a question.
    expect((await run(['render', '--', '--help'])).err).toContain('charts directory --help does not exist');
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
    // The spec's file, and the provenance file's digests of chart a's inputs and output.
    expect(drift.out).toMatch(/^-  a\/: sha256:[0-9a-f]{64}\n\+  a\/: sha256:[0-9a-f]{64}$/m);
    expect(drift.err).toMatch(/2 changed, 0 missing, 0 stale/);
  });

  it.each([
    ['check', []],
    ['check', ['--cache', 'CACHE']],
    ['diff', []],
  ])(
    '%s %j refuses an --out specforge did not write as a reader: it cannot compare, it replaces nothing (exit 2)',
    async (command, flags) => {
      const charts = writeFiles(tempDir(), { 'a/s.yaml': spec });
      const out = writeFiles(tempDir(), { 'notes.txt': 'mine\n' });
      const cache = tempDir();
      const r = await run([command, charts, '--out', out, ...flags.map((f) => (f === 'CACHE' ? cache : f))]);
      expect(r.err).toBe(
        `specforge: cannot compare with ${out}: ${join(out, 'notes.txt')} was not written by specforge, so ${out} is not the output of specforge render. Point --out at the directory specforge render writes (or an empty one).`,
      );
      expect(r.code).toBe(2);
    },
  );

  it('render refuses to replace an --out specforge did not write, with or without a cache (exit 2)', async () => {
    const charts = writeFiles(tempDir(), { 'a/s.yaml': spec });
    const out = writeFiles(tempDir(), { 'notes.txt': 'mine\n' });
    for (const flags of [[], ['--cache', tempDir()]]) {
      const r = await run(['render', charts, '--out', out, ...flags]);
      expect(r.err).toMatch(/^specforge: refusing to replace .*notes\.txt was not written by specforge\./);
      expect(r.code).toBe(2);
    }
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

  it("prints the general help, naming --version and each command's --help, with exit 0", async () => {
    for (const argv of [['--help'], ['-h'], ['help'], ['help', '--help']]) {
      const r = await run(argv);
      expect(r.code).toBe(0);
      expect(r.out).toContain('render [CHARTS_DIR] [--out DIR]');
      expect(r.out).toContain('-V, --version');
      expect(r.out).toContain('`specforge <command> --help`');
    }
  });
});

describe('specforge given odd input', () => {
  /** A charts directory holding a bit of everything that cannot be read. */
  function oddCharts(): string {
    const root = tempDir();
    const charts = writeFiles(root, {
      'charts/a/binary.yaml': '\u0000\u00ff garbage',
      'charts/a/tabs.yaml': 'kind:\tAppService\n\t- [\n',
      'charts/b/chart.mjs': 'export default () => { throw 42; };\n',
      'charts/c/chart.mjs': "export default () => { throw new Error('boom'); };\n",
      'charts/d/chart.mjs': "import 'no-such-package-anywhere';\nexport default () => {};\n",
      'charts/e/chart.mjs': 'export default ( => {;\n',
      'charts/f/x.yaml/s.yaml': spec,
      kubeconfig: 'clusters: [[\n',
      file: 'not a directory\n',
    });
    symlinkSync('loop', join(charts, 'charts/a/loop'));
    return charts;
  }

  it('names what is wrong in sentences and never prints a stack trace, for every command', async () => {
    const root = oddCharts();
    const charts = join(root, 'charts');
    const file = join(root, 'file');
    const kubeconfig = join(root, 'kubeconfig');
    for (const argv of [
      ['render', charts, '--out', join(root, 'dist')],
      ['render', charts, '--out', file],
      ['render', file],
      ['validate', charts],
      ['check', charts, '--out', join(root, 'nowhere')],
      ['render', charts, '--gitops', 'argocd,flux', '--out', join(root, 'dist')],
      ['diff', charts, '--out', join(root, 'dist')],
      ['diff', charts, '--against', 'no-such-revision'],
      ['diff', charts, '--format', 'markdown', '--split', file],
      ['diff', charts, '--report', join(file, 'x')],
      ['import', '--chart', charts, '-A', '--kubeconfig', kubeconfig],
      ['import', '--chart', charts, '-A', '--kubeconfig', '/dev/null'],
      ['import', '--chart', file, '-n', 'team', '--kubeconfig', root],
      ['adopt', 'plan', '--chart', file, '--field-manager', 'flux', '--operator-gone'],
      [
        'adopt',
        'apply',
        '--chart',
        charts,
        '--field-manager',
        'flux',
        '--operator-gone',
        '--kubeconfig',
        kubeconfig,
      ],
      ['render', '\u0000', '--out', '\u001b[2J'],
      ['help', '\u0000'],
    ]) {
      const r = await run(argv);
      expect([1, 2], argv.join(' ')).toContain(r.code);
      expect(r.err, argv.join(' ')).toMatch(/specforge: \S/);
      expect(`${r.out}\n${r.err}`, argv.join(' ')).not.toMatch(/^\s+at /m);
    }
  });
});
