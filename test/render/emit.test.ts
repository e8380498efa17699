import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { generateCharts } from '../../bench/generate.js';
import { topOf, type OutputSink } from '../../src/output/output-tally.js';
import { emitChart, Emission } from '../../src/render/emit.js';
import { loadCharts } from '../../src/render/source/load-charts.js';
import { renderSpecChart } from '../../src/render/render.js';
import { renderFrom } from '../../src/render/render-dir.js';
import type { ChartInput } from '../../src/render/chart/chart-input.js';
import { repoTempDir, tempDir, writeFiles } from '../support/tmp.js';
import { WIDGET_CRD } from '../support/widget-crd.js';

/** A sink that records each put: its top-level directories, and the files as a render would leave them. */
class Recorder implements OutputSink {
  readonly puts: string[][] = [];
  readonly files = new Map<string, Map<string, string>>();
  put(files: ReadonlyMap<string, string>): void {
    const dirs = [...new Set([...files.keys()].map(topOf))];
    this.puts.push(dirs);
    for (const dir of dirs) this.files.set(dir, new Map([...files].filter(([p]) => topOf(p) === dir)));
  }
  /** The files of the last put of each directory, in the order a render without a sink returns them. */
  final(order: readonly string[]): Map<string, string> {
    return new Map(order.flatMap((dir) => [...(this.files.get(dir) ?? [])]));
  }
}

const dirsOf = (files: ReadonlyMap<string, string>): string[] => [...new Set([...files.keys()].map(topOf))];

describe('Emission', () => {
  it("puts each chart's files into the sink when the chart is taken, before the next one is built", async () => {
    const dir = tempDir();
    generateCharts(dir, 40, 4);
    const { inputs } = await loadCharts(dir);
    const sink = new Recorder();
    const emission = new Emission({}, sink);
    for (const [i, input] of inputs.entries()) {
      emission.take(renderSpecChart(input as ChartInput));
      expect(sink.puts.length).toBe(i + 1);
      expect(sink.puts[i]).toEqual([input.name]);
    }
    const result = emission.end();
    expect(result.files.size).toBe(0);
    expect(result.objectCount).toBe(100);
  });

  it('leaves the bytes as a render without a sink makes them: the example charts, whose NodePools get Argo CD waves, and 1,000 generated specs', async () => {
    const generated = tempDir();
    generateCharts(generated, 1000, 10);
    for (const charts of ['charts', generated]) {
      const collected = await renderFrom(charts);
      const sink = new Recorder();
      const streamed = await renderFrom(charts, [], { sink });
      expect(streamed.errors).toEqual([]);
      expect(streamed.files.size).toBe(0);
      expect(sink.final(dirsOf(collected.files))).toEqual(collected.files);
      expect([...sink.final(dirsOf(collected.files)).keys()]).toEqual([...collected.files.keys()]);
      // One directory a put; a chart goes out again only for the annotations the pass across charts gives it.
      expect(sink.puts.every((dirs) => dirs.length === 1 || dirs.every((d) => d.startsWith('_')))).toBe(true);
      const again = sink.puts.length - new Set(sink.puts.flat()).size;
      if (charts === 'charts') expect(again).toBeGreaterThan(0);
      else expect(again).toBe(0);
    }
  });

  it('takes charts emitted where they were built as it takes them checked: the same puts, files and count', async () => {
    const dir = tempDir();
    generateCharts(dir, 40, 4);
    writeFileSync(join(dir, 'chart-001', 'bad.yaml'), 'kind: [\n');
    const { inputs } = await loadCharts(dir);
    const parts = inputs.map((input) => renderSpecChart(input as ChartInput));
    const checked = new Recorder();
    const emitted = new Recorder();
    const ends = [];
    for (const [sink, take] of [
      [checked, (e: Emission, i: number) => e.take(parts[i]!)],
      [emitted, (e: Emission, i: number) => e.take(emitChart(parts[i]!))],
    ] as const) {
      const emission = new Emission({}, sink);
      parts.forEach((_, i) => take(emission, i));
      ends.push(emission.end());
    }
    expect(checked.puts).toEqual([['chart-000']]);
    expect(emitted.puts).toEqual(checked.puts);
    expect(emitted.files).toEqual(checked.files);
    expect(ends[1]).toEqual(ends[0]);
    expect(ends[0]?.errors.length).toBeGreaterThan(0);
  });

  it('puts nothing once a chart has an error, and ends with every error of every chart', async () => {
    const dir = tempDir();
    generateCharts(dir, 30, 3);
    mkdirSync(join(dir, 'chart-001'), { recursive: true });
    writeFileSync(
      join(dir, 'chart-001', 'bad.yaml'),
      'apiVersion: myapp.timd.cn/v1\nkind: Myapp\nmetadata:\n  name: Bad\n',
    );
    writeFileSync(
      join(dir, 'chart-002', 'bad.yaml'),
      'apiVersion: myapp.timd.cn/v1\nkind: Myapp\nmetadata:\n  name: Worse\n',
    );
    const sink = new Recorder();
    const result = await renderFrom(dir, [], { sink });
    expect(sink.puts).toEqual([['chart-000']]);
    expect(result.files.size).toBe(0);
    expect(new Set(result.errors.map((e) => e.file))).toEqual(
      new Set([join(dir, 'chart-001', 'bad.yaml'), join(dir, 'chart-002', 'bad.yaml')]),
    );
  });

  it('checks the custom resources of a chart that has errors of its own, each problem once, in the same run', () => {
    const widget = (name: string, size: string) =>
      `new ApiObject(chart, '${name}', { apiVersion: 'gate.specforge.test/v1', kind: 'Widget', metadata: { name: '${name}' }, spec: { size: ${size} } } as any);`;
    const root = writeFiles(repoTempDir('emit-'), {
      'crds/widget.yaml': stringify(WIDGET_CRD),
      // an error of the chart's own (a ConfigMap key), a Widget its CRD refuses, one with NaN (both checks see it)
      'charts/app/chart.ts': `import { ApiObject } from 'cdk8s';
export default (chart: any) => {
  new ApiObject(chart, 'c', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { 'bad key!': 'x' } } as any);
  ${widget('zero', '0')}
  ${widget('nan', 'NaN')}
};
`,
    });
    const bin = resolve(import.meta.dirname, '../../bin/specforge.js');
    const r = spawnSync(process.execPath, [bin, 'render', 'charts', '--out', 'dist'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    const file = join('charts', 'app', 'chart.ts');
    expect(
      r.stderr
        .trimEnd()
        .split('\n')
        .map((l) => l.replace(/: expected .*/, '')),
    ).toEqual([
      `${file} (ConfigMap/c) data["bad key!"]`,
      `${file} (Widget/nan) spec.size`,
      `${file} (Widget/zero) spec.size`,
      'specforge: 3 errors; dist left unchanged.',
    ]);
    expect(r.stderr).toContain(`${file} (Widget/zero) spec.size: expected at least 1, found 0.`);
    expect(existsSync(join(root, 'dist'))).toBe(false);
  });
});
