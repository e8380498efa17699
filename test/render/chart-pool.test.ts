/**
 * Charts of spec files on several worker threads (`--jobs`, src/render/chart-pool.ts): the same bytes in dist/ and
 * the same messages, in the same order, for any number of workers; and when more workers do not pay.
 */
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCharts } from '../../bench/generate.js';
import { readSource } from '../../src/render/source/chart-source.js';
import { ChartPool, LOOKAHEAD, SPECS_PER_WORKER, workerCount } from '../../src/render/chart-pool.js';
import { emitChart } from '../../src/render/emit.js';
import { toWire } from '../../src/render/chart-wire.js';
import { loadCharts } from '../../src/render/source/load-charts.js';
import { renderSpecChart } from '../../src/render/render.js';
import type { ChartInput } from '../../src/render/chart/chart-input.js';
import { digestLines } from '../support/output-digests.js';
import { repoTempDir, run, tempDir } from '../support/tmp.js';

const chart = (name: string, specs: number): ChartInput => ({
  name,
  dir: `charts/${name}`,
  specFiles: Array.from({ length: specs }, (_, i) => ({
    file: `${i}.yaml`,
    relative: `${i}.yaml`,
    text: '',
  })),
});

describe('ChartPool', () => {
  it('builds at most LOOKAHEAD charts per worker ahead of the one taken, and hands each over as this thread builds it', async () => {
    const dir = tempDir();
    generateCharts(dir, 240, 24);
    const { inputs } = await loadCharts(dir);
    const pool = new ChartPool(inputs.map(readSource), 2);
    try {
      const taken = [await pool.take(0)];
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(pool.handedOut).toBeLessThanOrEqual(1 + 2 * LOOKAHEAD);
      for (let i = 1; i < inputs.length; i++) taken.push(await pool.take(i));
      const checked = taken.filter((c) => c.kind !== 'emitted');
      expect(checked.map(toWire)).toEqual(inputs.map((input) => toWire(renderSpecChart(input))));
    } finally {
      pool.close();
    }
  });

  it('emits each chart when asked, as this thread would emit it: its files and its skeletons', async () => {
    const dir = tempDir();
    generateCharts(dir, 240, 24);
    writeFileSync(join(dir, 'chart-005/broken.yaml'), 'kind: [\n');
    const { inputs } = await loadCharts(dir);
    const pool = new ChartPool(inputs.map(readSource), 2, true);
    try {
      const taken = [];
      for (let i = 0; i < inputs.length; i++) taken.push(await pool.take(i));
      expect(taken.every((c) => c.kind === 'emitted')).toBe(true);
      expect(taken).toEqual(inputs.map((input) => emitChart(renderSpecChart(input))));
      expect(taken[5]?.errors.length).toBeGreaterThan(0);
    } finally {
      pool.close();
    }
  });
});

describe('workerCount', () => {
  it('takes as many workers as jobs allow, no more than the charts, and one per SPECS_PER_WORKER spec files', () => {
    const many = Array.from({ length: 10 }, (_, i) => chart(`c${i}`, SPECS_PER_WORKER));
    expect(workerCount(4, many.map(readSource))).toBe(4);
    expect(workerCount(1, many.map(readSource))).toBe(1);
    expect(workerCount(64, many.map(readSource))).toBe(10);
    expect(workerCount(4, [chart('one', 10 * SPECS_PER_WORKER)].map(readSource))).toBe(1);
    expect(
      workerCount(4, [chart('a', SPECS_PER_WORKER), chart('b', SPECS_PER_WORKER - 1)].map(readSource)),
    ).toBe(1);
    expect(workerCount(4, [])).toBe(1);
  });
});

/** Renders `root/charts` into `root/dist-<jobs>` with each number of jobs: the files' digests and what it printed. */
async function renderWithJobs(root: string, jobs: readonly string[]) {
  const outs = [];
  for (const n of jobs) {
    const out = join(root, `dist-${n}`);
    const r = await run(['render', join(root, 'charts'), '--out', out, '--jobs', n]);
    expect(r.code, r.err).toBe(0);
    outs.push({ files: digestLines(out), out: r.out.replace(out, 'OUT'), err: r.err });
  }
  return outs;
}

describe('a render with --jobs', () => {
  it('writes the same bytes and prints the same lines with 1 and 4 jobs (1,000 specs of all four kinds in 10 charts)', async () => {
    const root = tempDir();
    generateCharts(join(root, 'charts'), 1000, 10);
    const outs = await renderWithJobs(root, ['1', '4']);
    expect(outs[0]?.files.split('\n').length).toBeGreaterThan(1000);
    expect(outs[1]).toEqual(outs[0]);
  });

  it('writes the same bytes with 1 and 4 jobs where the pass across charts annotates charts the workers emitted', async () => {
    const root = repoTempDir('chart-pool-');
    cpSync(join(import.meta.dirname, '../../charts'), join(root, 'charts'), { recursive: true });
    generateCharts(join(root, 'charts'), 400, 4);
    const outs = await renderWithJobs(root, ['1', '4']);
    // a NodePool of a chart of spec files waits for the controller's CRD, from another chart
    expect(readFileSync(join(root, 'dist-4/blog-code-03/nodepool.master.yaml'), 'utf8')).toContain(
      'argocd.argoproj.io/sync-wave',
    );
    expect(outs[1]).toEqual(outs[0]);
  });

  it('reads no chart past a chart with a module before its module ran, as one thread does: the same bytes with 1 and 2 jobs', async () => {
    const root = tempDir();
    const charts = join(root, 'charts');
    generateCharts(charts, 600, 3);
    // chart-000's module rewrites the replicas of the charts after it, which the workers build
    writeFileSync(
      join(charts, 'chart-000', 'chart.mjs'),
      `import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
export default function () {
  for (const chart of ['chart-001', 'chart-002']) {
    const dir = new URL(\`../\${chart}/\`, import.meta.url);
    for (const f of readdirSync(dir).filter((f) => f !== 'chart.yaml'))
      writeFileSync(new URL(f, dir), readFileSync(new URL(f, dir), 'utf8').replace(/replicas: \\d+/, 'replicas: 9'));
  }
}
`,
    );
    const texts = new Map(
      ['chart-001', 'chart-002'].flatMap((c) =>
        readdirSync(join(charts, c)).map((f) => [
          join(charts, c, f),
          readFileSync(join(charts, c, f), 'utf8'),
        ]),
      ),
    );
    const outs = [];
    for (const n of ['1', '2']) {
      for (const [file, text] of texts) writeFileSync(file, text);
      outs.push(...(await renderWithJobs(root, [n])));
    }
    const rendered = readdirSync(join(root, 'dist-1', 'chart-001')).map((f) =>
      readFileSync(join(root, 'dist-1', 'chart-001', f), 'utf8'),
    );
    expect(rendered.join('')).toContain('replicas: 9'); // the module ran before chart-001 was read
    expect(outs[1]).toEqual(outs[0]);
  });

  it('prints every error of every chart in the same order with 1 and 4 jobs, and writes nothing', async () => {
    const root = tempDir();
    // enough files for four jobs to start workers (src/render/chart-pool.ts), one a problem to read
    generateCharts(join(root, 'charts'), 1000, 8);
    writeFileSync(join(root, 'charts/chart-004/latin1.yaml'), Buffer.from([0x61, 0x3a, 0xe9, 0x0a]));
    writeFileSync(
      join(root, 'charts/chart-001/appservice-100.yaml'),
      'apiVersion: app.example.com/v1\nkind: AppService\nmetadata: {name: bad}\nspec: {image: "", size: -1}\n',
    );
    writeFileSync(join(root, 'charts/chart-006/broken.yaml'), 'kind: [\n');
    writeFileSync(
      join(root, 'charts/chart-003/myapp-dup.yaml'),
      'apiVersion: myapp.timd.cn/v1\nkind: Myapp\nmetadata: {name: myapp-301}\nspec: {image: shop:1, containerPort: 70000}\n',
    );
    const errs = [];
    for (const jobs of ['1', '4']) {
      const out = join(root, `dist-${jobs}`);
      const r = await run(['render', join(root, 'charts'), '--out', out, '--jobs', jobs]);
      expect(r.code).toBe(1);
      expect(existsSync(out)).toBe(false);
      errs.push(r.err.replace(out, 'OUT'));
    }
    expect(errs[0]).toMatch(
      // what reading found first, as the listing's problems are
      /chart-004\/latin1\.yaml.*UTF-8.*\n(.*\n)*.*chart-001\/appservice-100\.yaml.*\n(.*\n)*.*chart-003\/myapp-dup\.yaml(.*\n)*.*chart-006\/broken\.yaml/,
    );
    expect(errs[1]).toBe(errs[0]);
  });

  it('refuses a --jobs that is not a whole number from 1 to 256, as a usage error', async () => {
    for (const value of ['0', '2.5', 'many', '257', '', '+3']) {
      const r = await run(['validate', 'charts', '--jobs', value]);
      expect(r.code, value).toBe(2);
      expect(r.err).toContain(`--jobs ${JSON.stringify(value)} is not a number of worker threads`);
    }
  });
});
