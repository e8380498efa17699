import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoTempBase, run, tempDir, writeFiles } from '../support/tmp.js';

/**
 * `specforge diff --against REF` reads REF from git's objects: into memory for charts of spec files, into a
 * temporary directory outside the repository when REF has a chart module or a link. `.gitattributes` cannot hide
 * files of that side, chart modules of REF still resolve their imports, and an interrupted diff leaves nothing
 * behind, in the repository or in the temporary directory.
 */

const ROOT = resolve(import.meta.dirname, '../..');
// Inside this repository, so a chart module's `import ... from 'specforge'` resolves to this package.
const BASE = repoTempBase();

/** A git repository holding `charts/` with copies of the named example charts and `files`, committed. */
function repository(charts: readonly string[], files: Record<string, string> = {}) {
  const root = tempDir('diff-against-', BASE);
  for (const c of charts) cpSync(join(ROOT, 'charts', c), join(root, 'charts', c), { recursive: true });
  writeFiles(root, files);
  const git = (...args: string[]): string => {
    const r = spawnSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args],
      { cwd: root, encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'charts');
  return { root, charts: join(root, 'charts'), git };
}

/** A repository whose one chart has a chart module: its revision is written out to be rendered. */
function repoWithModule() {
  return repository(['myapp'], { 'charts/myapp/chart.mjs': 'export default function () {}\n' });
}

/** Whatever the diff left: its directories beside the charts (as it once made them) and in `tmp`. */
function leftovers(root: string, tmp: string): string[] {
  return [
    ...readdirSync(root).filter((f) => f.includes('specforge-tmp')),
    // Node.js's compile cache, which the command keeps in the temporary directory outside CI (bin/specforge.js),
    // is not a copy of the revision
    ...readdirSync(tmp)
      .filter((f) => f !== 'node-compile-cache')
      .map((f) => `$TMPDIR/${f}`),
  ];
}

describe('specforge diff --against reads the revision from git objects', () => {
  it('sees the objects of charts that .gitattributes marks export-ignore: an unchanged tree differs in nothing', async () => {
    const repo = repository(['myapp'], { 'charts/.gitattributes': '*.yaml export-ignore\n' });
    const r = await run(['diff', repo.charts, '--against', 'HEAD', '--format', 'json']);
    expect(r.err).toBe('');
    expect(JSON.parse(r.out).summary).toMatchObject({ objects: 0, added: 0, removed: 0 });
    expect(r.code).toBe(0);
  });

  it('sees a removal that export-ignore would have hidden', async () => {
    const repo = repository(['myapp', 'pod-route']);
    writeFiles(repo.root, { '.git/info/attributes': 'pod-route/** export-ignore\n' });
    repo.git('rm', '-q', '-r', 'charts/pod-route');
    const r = await run(['diff', repo.charts, '--against', 'HEAD', '--format', 'json']);
    expect(JSON.parse(r.out).summary).toMatchObject({ objects: 3, added: 0, removed: 3 });
  });

  it('reads a revision of spec files into memory: no temporary directory is needed, or made', async () => {
    const repo = repository(['myapp', 'pod-route']);
    repo.git('rm', '-q', '-r', 'charts/pod-route');
    const nowhere = join(repo.root, 'no-such-tmp');
    const tmpdir = process.env.TMPDIR;
    process.env.TMPDIR = nowhere; // writing the revision out would fail: "--against cannot make a temporary directory"
    try {
      const r = await run(['diff', repo.charts, '--against', 'HEAD', '--format', 'json']);
      expect(r.err).toBe('');
      expect(JSON.parse(r.out).summary).toMatchObject({ objects: 3, added: 0, removed: 3 });
      const module = await run(['diff', repoWithModule().charts, '--against', 'HEAD']);
      expect(module.err).toMatch(/--against cannot make a temporary directory in .*no-such-tmp/);
    } finally {
      if (tmpdir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmpdir;
    }
    expect(existsSync(nowhere)).toBe(false);
  });

  it('runs a chart module of today contained, also against a revision that had no charts directory', async () => {
    const repo = repository([], { 'README.md': 'x\n' });
    cpSync(join(ROOT, 'charts', 'myapp'), join(repo.charts, 'myapp'), { recursive: true });
    // A timer left behind that ends the process: contained, the render names the module instead of exiting.
    writeFileSync(
      join(repo.charts, 'myapp/chart.mjs'),
      'export default async () => {\n  setTimeout(() => process.exit(3), 0);\n  await new Promise((done) => setTimeout(done, 200));\n};\n',
    );
    const r = await run(['diff', repo.charts, '--against', 'HEAD']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/chart\.mjs.*a chart module called process\.exit, or left a timer that did/);
  });

  it('renders a chart module of the revision, which imports specforge and cdk8s', async () => {
    const repo = repository(['specforge-controller']);
    writeFileSync(
      join(repo.charts, 'specforge-controller/chart.ts'),
      [
        "import { JsonPatch, type Chart } from 'cdk8s';",
        "import { ControllerBundle } from 'specforge';",
        '',
        'export default function (chart: Chart): void {',
        "  const bundle = new ControllerBundle(chart, 'specforge-controller');",
        "  bundle.deployment.addJsonPatch(JsonPatch.add('/spec/template/metadata/labels/track', 'stable'));",
        '}',
        '',
      ].join('\n'),
    );
    const r = await run(['diff', repo.charts, '--against', 'HEAD']);
    expect(r.err).toBe('');
    expect(r.out).toContain('~ Deployment specforge-system/specforge-controller');
    expect(r.out).toMatch(/labels\.track: \(absent\) → "stable"|labels\.track.*"stable"/);
    expect(r.code).toBe(1);
    expect(leftovers(repo.root, tempDir('none-'))).toEqual([]);
  });
});

describe('specforge diff --against runs the revision inside a copy of its repository', () => {
  /** A chart module that makes a ConfigMap of `data` (JavaScript expressions over what it imports and reads). */
  const configMapModule = (head: string, data: string): string =>
    `${head}\nimport { ApiObject } from 'cdk8s';\nexport default function (chart) {\n  new ApiObject(chart, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared' }, data: ${data} });\n}\n`;

  it("resolves an import that climbs out of the charts directory to the revision's file, never to $TMPDIR", async () => {
    const repo = repository([], {
      'lib/shared.mjs': 'export const size = "small";\n',
      // Three levels up from deploy/charts/web: the repository's top, which a copy of charts/ alone put in $TMPDIR.
      'deploy/charts/web/chart.mjs': configMapModule(
        "import { size } from '../../../lib/shared.mjs';",
        '{ size }',
      ),
    });
    writeFileSync(join(repo.root, 'lib/shared.mjs'), 'export const size = "large";\n');
    const tmp = tempDir('diff-planted-');
    const planted = join(tmp, 'planted-ran');
    writeFiles(tmp, {
      'lib/shared.mjs': `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(planted)}, 'x');\nexport const size = "planted";\n`,
    });
    const before = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      const r = await run(['diff', join(repo.root, 'deploy/charts'), '--against', 'HEAD']);
      expect(r.err).toBe('');
      expect(r.out).toContain('data.size: "small" → "large"');
      expect(r.code).toBe(1);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
    expect(existsSync(planted)).toBe(false);
  });

  it("lets a chart module read the revision's files outside charts/, beside itself or from the working directory", async () => {
    const reads = [
      "import { readFileSync } from 'node:fs';",
      "const beside = readFileSync(new URL('../../specs/web.yaml', import.meta.url), 'utf8').trim();",
      "const fromCwd = readFileSync('specs/web.yaml', 'utf8').trim();",
    ].join('\n');
    const repo = repository([], {
      'specs/web.yaml': 'replicas: 3\n',
      'charts/web/chart.mjs': configMapModule(reads, '{ beside, fromCwd }'),
    });
    writeFileSync(join(repo.root, 'specs/web.yaml'), 'replicas: 5\n');
    const cwd = process.cwd();
    process.chdir(repo.root);
    try {
      const r = await run(['diff', 'charts', '--against', 'HEAD']);
      expect(r.err).toBe('');
      expect(r.out).toContain('data.beside: "replicas: 3" → "replicas: 5"');
      expect(r.out).toContain('data.fromCwd: "replicas: 3" → "replicas: 5"');
      expect(r.code).toBe(1);
      expect(process.cwd()).toBe(repo.root);
    } finally {
      process.chdir(cwd);
    }
  });
});

describe('specforge diff --against, interrupted', () => {
  // A chart module that takes its time: the diff is still rendering when the signal comes.
  const SLOW = 'await new Promise((r) => setTimeout(r, 20_000));\nexport default function () {}\n';

  /**
   * Starts `specforge diff charts --against HEAD` in `root` with `TMPDIR=tmp`; returns once it has written out HEAD
   * (into a directory other than those `before`).
   */
  async function startDiff(root: string, tmp: string, before: readonly string[] = []) {
    const child = spawn(
      process.execPath,
      [join(ROOT, 'bin/specforge.js'), 'diff', 'charts', '--against', 'HEAD'],
      {
        cwd: root,
        env: { ...process.env, TMPDIR: tmp },
        stdio: 'ignore',
      },
    );
    const exited = new Promise<{ code: number | null; signal: string | null }>((done) =>
      child.on('exit', (c, s) => done({ code: c, signal: s })),
    );
    // Once the revision is written out (wherever the diff puts it), the caller interrupts.
    const deadline = Date.now() + 15_000;
    const written = (): boolean =>
      leftovers(root, tmp).some((d) => {
        if (before.includes(d)) return false;
        // The revision's repository is written at tree/<its absolute path> (src/diff/sides/git-tree.ts).
        const dir = d.startsWith('$TMPDIR/')
          ? join(tmp, d.slice(8), 'tree', realpathSync(root), 'charts')
          : join(root, d);
        return existsSync(join(dir, 'slow/chart.mjs'));
      });
    while (!written() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(written(), 'the diff wrote out the revision').toBe(true);
    return { child, exited };
  }

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    'on %s removes its copy of the revision, exits %i, and leaves git status clean',
    async (signal, code) => {
      const repo = repository([], { 'charts/slow/chart.mjs': SLOW });
      const tmp = tempDir('diff-tmp-');
      const { child, exited } = await startDiff(repo.root, tmp);
      child.kill(signal);
      expect(await exited).toEqual({ code, signal: null });
      expect(leftovers(repo.root, tmp)).toEqual([]);
      expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('');
    },
  );

  it('killed outright (SIGKILL), leaves git status clean, and the next diff sweeps its copy', async () => {
    const repo = repository([], { 'charts/slow/chart.mjs': SLOW });
    const tmp = tempDir('diff-tmp-');
    const { child, exited } = await startDiff(repo.root, tmp);
    child.kill('SIGKILL');
    expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('');
    const orphan = leftovers(repo.root, tmp);
    expect(orphan).toHaveLength(1);
    const next = await startDiff(repo.root, tmp, orphan);
    expect(leftovers(repo.root, tmp)).not.toContain(orphan[0]);
    next.child.kill('SIGTERM');
    await next.exited;
    expect(leftovers(repo.root, tmp)).toEqual([]);
  });
});
