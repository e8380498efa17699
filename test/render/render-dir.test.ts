import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCharts } from '../../bench/generate.js';
import { topOf, type OutputSink } from '../../src/output/output-tally.js';
import { listCharts, loadCharts } from '../../src/render/source/load-charts.js';
import { renderFrom, renderLoaded } from '../../src/render/render-dir.js';
import { repoTempDir, tempDir } from '../support/tmp.js';

/** A sink that writes down each put as `put <chart>`, into `events`. */
function recorder(events: string[]): OutputSink {
  return { put: (files) => events.push(...new Set([...files.keys()].map((p) => `put ${topOf(p)}`))) };
}

describe('renderFrom', () => {
  it("reads each chart's files when its turn comes, once the chart before it is out", async () => {
    const dir = tempDir();
    generateCharts(dir, 40, 4);
    const listed = await listCharts(dir);
    const events: string[] = [];
    for (const chart of listed.charts) {
      const read = chart.read.bind(chart);
      chart.read = () => (events.push(`read ${chart.name}`), read());
    }
    const result = await renderLoaded(listed, dir, [], { sink: recorder(events) });
    expect(result.errors).toEqual([]);
    expect(events).toEqual(
      ['chart-000', 'chart-001', 'chart-002', 'chart-003'].flatMap((c) => [`read ${c}`, `put ${c}`]),
    );
  });

  it('renders chart by chart to the files and messages of a render of every chart read first, for any --jobs', async () => {
    const generated = tempDir();
    generateCharts(generated, 1000, 10);
    // 600 specs in 6 charts: enough for --jobs 3 to start three worker threads
    const troubled = tempDir();
    generateCharts(troubled, 600, 6);
    writeFileSync(join(troubled, 'chart-002', 'latin1.yaml'), Buffer.from([0x61, 0x3a, 0xe9, 0x0a]));
    writeFileSync(join(troubled, 'chart-004', 'bad.yaml'), 'kind: Myapp\nmetadata:\n  name: Bad\n');
    for (const dir of ['charts', generated, troubled])
      for (const jobs of [1, 3]) {
        const whole = await renderLoaded(await loadCharts(dir), dir, ['flux'], { jobs });
        const streamed = await renderFrom(dir, ['flux'], { jobs });
        expect(streamed).toEqual(whole);
        expect(streamed.errors.length > 0).toBe(dir === troubled);
      }
  });

  it('puts nothing more into the sink once reading a chart found a problem, for any --jobs', async () => {
    const dir = tempDir();
    generateCharts(dir, 600, 6);
    writeFileSync(join(dir, 'chart-003', 'latin1.yaml'), Buffer.from([0x61, 0x3a, 0xe9, 0x0a]));
    for (const jobs of [1, 3]) {
      const events: string[] = [];
      const result = await renderFrom(dir, [], { jobs, sink: recorder(events) });
      expect(result.errors.map((e) => e.file)).toEqual([join(dir, 'chart-003', 'latin1.yaml')]);
      // the charts before it, or fewer when the pool read it ahead of them
      expect(['put chart-000', 'put chart-001', 'put chart-002'].slice(0, events.length)).toEqual(events);
    }
  });

  it.each([1, 3])(
    'refuses a chart the pass across charts builds again when its files changed after the render read them (--jobs %i)',
    async (jobs) => {
      // inside the repository, where the controller chart's module resolves `specforge`; with 300 more specs, enough
      // for --jobs 3 to build the charts of spec files on worker threads
      const dir = repoTempDir('render-dir-');
      cpSync('charts', dir, { recursive: true });
      generateCharts(dir, 300, 3);
      const listed = await listCharts(dir);
      const chart = listed.charts.find((c) => c.name === 'blog-code-05')!;
      const file = join(dir, 'blog-code-05', '05-node-pool-operator.nodes_v1_nodepool.yaml');
      const read = chart.read.bind(chart);
      chart.read = () => {
        const input = read();
        writeFileSync(file, `${readFileSync(file, 'utf8')}# changed\n`);
        return input;
      };
      const events: string[] = [];
      const result = await renderLoaded(listed, dir, [], { jobs, sink: recorder(events) });
      expect(events).toContain('put blog-code-05');
      expect(result.files.size).toBe(0);
      expect(result.errors).toEqual([
        expect.objectContaining({
          file: join(dir, 'blog-code-05'),
          found: 'files that changed after the render read them',
        }),
      ]);
    },
  );
});
