import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoTempBase, run, tempDir } from '../support/tmp.js';

/**
 * `specforge diff` end to end, on copies of the example charts: each scenario renders the charts into dist/, makes
 * a real change to the specs, and compares the three reports with the reviewed files in test/diff/golden/
 * (`SPECFORGE_UPDATE_GOLDEN=1 npx vitest run test/diff/command.test.ts` writes them anew).
 */

const ROOT = resolve(import.meta.dirname, '../..');
const GOLDEN = join(import.meta.dirname, 'golden');
// Inside the repository, so a chart module's `import ... from 'specforge'` resolves to this package.
const BASE = repoTempBase();
const UPDATE = process.env.SPECFORGE_UPDATE_GOLDEN === '1';

/** A directory holding `charts/` with copies of the named example charts (in the repository, or `base`). */
function workspace(charts: readonly string[], base = BASE): { root: string; charts: string; dist: string } {
  const root = tempDir('diff-', base);
  for (const c of charts) cpSync(join(ROOT, 'charts', c), join(root, 'charts', c), { recursive: true });
  return { root, charts: join(root, 'charts'), dist: join(root, 'dist') };
}

function edit(path: string, from: string, to: string): void {
  const text = readFileSync(path, 'utf8');
  if (!text.includes(from)) throw new Error(`${path} does not hold ${from}`);
  writeFileSync(path, text.replace(from, to));
}

/** The output as the user sees it running from the workspace: `charts`, `dist`, not temporary paths. */
const relative = (text: string, root: string): string => text.split(`${root}/`).join('');

function golden(name: string, actual: string): void {
  const path = join(GOLDEN, name);
  // A missing golden is written only when asked (or outside CI, to start one); in CI it fails, never passes.
  if (UPDATE || (!existsSync(path) && process.env.CI !== 'true')) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(path, `${actual}\n`);
  }
  expect(`${actual}\n`, `${name} (SPECFORGE_UPDATE_GOLDEN=1 rewrites it)`).toBe(readFileSync(path, 'utf8'));
}

const SELECTOR_MODULE = `// A chart written in code: the controller's own deployment bundle (CRD, RBAC, Deployment), rendered by
// specforge into dist/specforge-controller/ so the same GitOps flow deploys it.
import { JsonPatch, type Chart } from 'cdk8s';
import { ControllerBundle } from 'specforge';

export default function (chart: Chart): void {
  const bundle = new ControllerBundle(chart, 'specforge-controller');
  // A canary track will run beside this one: keep its pods out of this Deployment's selector.
  bundle.deployment.addJsonPatch(
    JsonPatch.add('/spec/selector/matchLabels/track', 'stable'),
    JsonPatch.add('/spec/template/metadata/labels/track', 'stable'),
  );
}
`;

const SCENARIOS: readonly { name: string; charts: string[]; change: (charts: string) => void }[] = [
  {
    name: 'image-bump',
    charts: ['myapp'],
    change: (c) =>
      edit(
        join(c, 'myapp/myapp_v1_myapp.yaml'),
        'image: ikubernetes/myapp:v2',
        'image: ikubernetes/myapp:v3',
      ),
  },
  {
    name: 'replicas',
    charts: ['opdemo'],
    change: (c) => edit(join(c, 'opdemo/app_v1_appservice_cr.yaml'), 'size: 2', 'size: 4'),
  },
  {
    name: 'port-added',
    charts: ['opdemo'],
    change: (c) => {
      const spec = join(c, 'opdemo/app_v1_appservice_cr.yaml');
      edit(spec, '    - port: 80\n', '    - name: http\n      port: 80\n');
      writeFileSync(
        spec,
        `${readFileSync(spec, 'utf8')}    - name: metrics\n      port: 9090\n      targetPort: 9090\n`,
      );
    },
  },
  {
    name: 'spec-removed',
    charts: ['myapp', 'blog-code-06'],
    change: (c) => rmSync(join(c, 'blog-code-06/06-node-pool-operator.nodes_v1_nodepool.yaml')),
  },
  {
    name: 'spec-renamed',
    charts: ['pod-route'],
    change: (c) =>
      edit(join(c, 'pod-route/_v1alpha1_podroute.yaml'), 'name: podroute-sample', 'name: podroute-v2'),
  },
  {
    name: 'selector-changed',
    charts: ['specforge-controller'],
    change: (c) => writeFileSync(join(c, 'specforge-controller/chart.ts'), SELECTOR_MODULE),
  },
];

describe('specforge diff', () => {
  for (const s of SCENARIOS) {
    it(`reports ${s.name.replace('-', ' ')} in text, Markdown and JSON as the golden files show`, async () => {
      const w = workspace(s.charts);
      expect((await run(['render', w.charts, '--out', w.dist])).code).toBe(0);
      s.change(w.charts);
      for (const [format, ext] of [
        ['text', 'txt'],
        ['markdown', 'md'],
        ['json', 'json'],
      ] as const) {
        const r = await run(['diff', w.charts, '--out', w.dist, '--format', format]);
        expect(r.err).toBe('');
        expect(r.code).toBe(1);
        golden(`${s.name}.${ext}`, relative(r.out, w.root));
      }
    });
  }

  it('exits 0 and says so when dist/ holds what the charts render', async () => {
    const w = workspace(['myapp', 'opdemo']);
    await run(['render', w.charts, '--out', w.dist]);
    for (const format of ['text', 'markdown', 'json']) {
      const r = await run(['diff', w.charts, '--out', w.dist, '--format', format]);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/no object differs|"objects": 0/);
    }
  });

  it('shows every object as added when dist/ does not exist yet', async () => {
    const w = workspace(['myapp']);
    const r = await run(['diff', w.charts, '--out', w.dist, '--format', 'json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).summary).toMatchObject({ objects: 4, added: 4 });
  });

  it('exits 2 with one sentence on usage errors', async () => {
    const w = workspace(['myapp']);
    for (const [argv, message] of [
      [['diff', w.charts, '--format', 'yaml'], /--format takes text, markdown, json, not "yaml"/],
      [['diff', w.charts, 'other'], /diff takes one CHARTS_DIR, got 2/],
      [['diff', w.charts, '--against', 'HEAD', '--out', w.dist], /--out does not apply/],
      [['diff', w.charts, '--frobnicate'], /unknown option --frobnicate\n/],
      [['diff', join(w.root, 'nope')], /charts directory .*nope does not exist/],
      [['diff', join(w.root, 'nope'), '--against', 'HEAD'], /charts directory .*nope does not exist/],
    ] as const) {
      const r = await run([...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err).not.toMatch(/\n\s+at /);
    }
  });

  it('exits 1 naming file and field when a spec is broken, and compares nothing', async () => {
    const w = workspace(['myapp']);
    await run(['render', w.charts, '--out', w.dist]);
    edit(join(w.charts, 'myapp/myapp_v1_myapp.yaml'), 'replicas: 2', 'replicas: two');
    const r = await run(['diff', w.charts, '--out', w.dist]);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(relative(r.err, w.root)).toMatch(
      /^charts\/myapp\/myapp_v1_myapp\.yaml:\d+:\d+ \(document 1\) spec\.replicas: expected .*\nspecforge: 1 error in charts; nothing compared\.$/,
    );
  });

  it("prints the lines of a chart module's error of several lines as lines, not as \\n", async () => {
    const w = workspace(['myapp']);
    writeFileSync(
      join(w.charts, 'myapp/chart.ts'),
      'export default function (): void {\n  throw new Error("no image\\nset IMAGE");\n}\n',
    );
    const r = await run(['diff', w.charts, '--out', w.dist]);
    expect(r.code).toBe(1);
    expect(relative(r.err, w.root).split('\n')).toEqual([
      'charts/myapp/chart.ts:2:9: expected a chart module that builds its chart, found an error while building it: no image',
      '  set IMAGE.',
      'specforge: 1 error in charts; nothing compared.',
    ]);
  });

  it('exits 1 with one sentence when dist/ holds a file that is not YAML', async () => {
    const w = workspace(['myapp']);
    await run(['render', w.charts, '--out', w.dist]);
    writeFileSync(join(w.dist, 'myapp/myapp.myapp.test-myapp.yaml'), '# Generated by specforge\na: [\n');
    const r = await run(['diff', w.charts, '--out', w.dist]);
    expect(r.code).toBe(1);
    expect(relative(r.err, w.root)).toMatch(
      /^dist\/myapp\/myapp\.myapp\.test-myapp\.yaml: expected YAML as specforge renders it, found text that is not valid YAML \(.*\)\. Render again .*\nspecforge: 1 error in dist; nothing compared\.$/,
    );
  });
});

/** A git repository holding `charts/` with copies of the named example charts, committed. */
function repository(charts: readonly string[]): {
  root: string;
  charts: string;
  git: (...args: string[]) => string;
} {
  const w = workspace(charts);
  const git = (...args: string[]): string => {
    const r = spawnSync(
      'git',
      [
        '-c',
        'user.name=specforge test',
        '-c',
        'user.email=test@specforge.dev',
        '-c',
        'commit.gpgsign=false',
        ...args,
      ],
      { cwd: w.root, encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '--allow-empty', '-m', 'charts');
  return { root: w.root, charts: w.charts, git };
}

describe('specforge diff --against', () => {
  it('compares the render of the charts as of HEAD~1 with the render of the working tree', async () => {
    const repo = repository(['myapp', 'pod-route']);
    edit(
      join(repo.charts, 'myapp/myapp_v1_myapp.yaml'),
      'image: ikubernetes/myapp:v2',
      'image: ikubernetes/myapp:v3',
    );
    repo.git('commit', '-q', '-am', 'bump');
    const commit = repo.git('rev-parse', '--short=7', 'HEAD~1').trim();
    const r = await run(['diff', repo.charts, '--against', 'HEAD~1']);
    expect(r.code).toBe(1);
    expect(relative(r.out, repo.root)).toBe(
      [
        `specforge diff: charts at HEAD~1 (${commit}) → charts: 1 object differs in 1 chart (0 added, 0 removed, 1 changed).`,
        '',
        'myapp (dist/myapp/)',
        '  ~ Deployment myapp/test-myapp  [myapp.myapp.test-myapp.yaml]',
        '      spec.template.spec.containers[name=test-myapp].image: "ikubernetes/myapp:v2" → "ikubernetes/myapp:v3"',
        '      => pod template changed: rolling restart (new pods replace the old ones)',
      ].join('\n'),
    );
    expect(readdirSync(repo.root).filter((f) => f.includes('specforge-tmp'))).toEqual([]);
    expect((await run(['diff', repo.charts, '--against', 'HEAD'])).code).toBe(0);
  });

  it('shows everything as added against a revision that had no charts directory', async () => {
    const repo = repository([]);
    writeFileSync(join(repo.root, 'README.md'), 'x\n');
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'start');
    cpSync(join(ROOT, 'charts', 'pod-route'), join(repo.charts, 'pod-route'), { recursive: true });
    const r = await run(['diff', repo.charts, '--against', 'HEAD', '--format', 'json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).summary).toMatchObject({ objects: 3, added: 3 });
  });

  it('names the revision in the errors of a render of it that fails', async () => {
    const repo = repository(['myapp']);
    edit(join(repo.charts, 'myapp/myapp_v1_myapp.yaml'), 'replicas: 2', 'replicas: 0');
    repo.git('commit', '-q', '-am', 'broken');
    edit(join(repo.charts, 'myapp/myapp_v1_myapp.yaml'), 'replicas: 0', 'replicas: 2');
    const r = await run(['diff', repo.charts, '--against', 'HEAD']);
    expect(r.code).toBe(1);
    expect(relative(r.err, repo.root)).toMatch(
      /^HEAD:charts\/myapp\/myapp_v1_myapp\.yaml:\d+:\d+ \(document 1\) spec\.replicas: /,
    );
    expect(relative(r.err, repo.root)).toMatch(
      /specforge: 1 error in charts at HEAD \([0-9a-f]{7}\); nothing compared\.$/,
    );
    expect(readdirSync(repo.root).filter((f) => f.includes('specforge-tmp'))).toEqual([]);
  });

  it('exits 2 with one sentence for a revision that does not exist or a directory outside git', async () => {
    const repo = repository(['myapp']);
    for (const ref of ['no-such-branch', 'HEAD~5', '--output=/tmp/x']) {
      const r = await run(['diff', repo.charts, `--against=${ref}`]);
      expect(r.code, ref).toBe(2);
      expect(r.err).toMatch(
        /^specforge: --against .*(no such commit in the git repository of|is not a git revision)/,
      );
      expect(r.err.split('\n')).toHaveLength(1);
    }
    const outside = workspace(['myapp'], tmpdir());
    const r = await run(['diff', outside.charts, '--against', 'HEAD']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--against needs .* inside a git repository/);
  });
});

describe('the specforge binary', () => {
  it('exits 0 without changes, 1 with changes, 2 on a bad revision', () => {
    const w = workspace(['pod-route']);
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [join(ROOT, 'bin/specforge.js'), ...args], {
        cwd: w.root,
        encoding: 'utf8',
      });
    expect(cli('render').status).toBe(0);
    expect(cli('diff').status).toBe(0);
    edit(join(w.charts, 'pod-route/_v1alpha1_podroute.yaml'), 'replicas: 3', 'replicas: 4');
    const changed = cli('diff', '--format', 'markdown');
    expect(changed.status).toBe(1);
    expect(changed.stdout).toContain('| `spec.replicas` | `3` | `4` |');
    const bad = cli('diff', '--against', 'nope');
    expect(bad.status).toBe(2);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });
});
