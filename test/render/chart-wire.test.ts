import { describe, expect, it } from 'vitest';
import type { CheckedChart } from '../../src/render/chart/check-chart.js';
import { ChartReuse } from '../../src/render/chart-reuse.js';
import { fromWire, toWire } from '../../src/render/chart-wire.js';
import type { ChartInput } from '../../src/render/chart/chart-input.js';

/** A checked chart crosses threads (and the cache) as plain data, and loses nothing on the way. */

const input = (dir: string): ChartInput => ({
  name: 'shop',
  dir: `${dir}/shop`,
  specFiles: [{ file: `${dir}/shop/web.yaml`, relative: 'shop/web.yaml', text: 'kind: AppService\n' }],
});

/** A built chart with one object and one wiring note, as src/render/chart/check-chart.ts makes them. */
function checked(dir: string): CheckedChart {
  const file = `${dir}/shop/web.yaml`;
  return {
    input: input(dir),
    errors: [],
    built: {
      objects: [
        {
          json: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' } },
          source: { file, document: 1 },
        },
      ],
      header: () => '# header\n',
      notes: [{ file, document: 1, path: '(Service/web) spec.selector', expected: 'pods', found: 'none' }],
    },
  };
}

describe('a checked chart as plain data', () => {
  it('keeps the notes of its wiring checks across threads', () => {
    const part = checked('charts');
    const back = fromWire(part.input, structuredClone(toWire(part)));
    expect(back.built?.notes).toEqual(part.built?.notes);
  });

  it('names the files of the render that takes it in its notes, as in its objects', () => {
    const reuse = new ChartReuse();
    reuse.keep(checked('/today'));
    const taken = reuse.find(input('/revision'));
    expect(taken?.built?.notes?.map((n) => n.file)).toEqual(['/revision/shop/web.yaml']);
    expect(taken?.built?.objects.map((o) => o.source?.file)).toEqual(['/revision/shop/web.yaml']);
  });
});
