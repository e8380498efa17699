/**
 * Charts read ahead on a thread of their own (src/render/read-ahead.ts): the same inputs, problems and digests as
 * each chart read when its turn comes, and a render that never waits for the thread.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCharts } from '../../bench/generate.js';
import { listCharts } from '../../src/render/load-charts.js';
import { READ_AHEAD, READ_AHEAD_MIN_FILES, ReadAhead } from '../../src/render/read-ahead.js';
import { tempDir } from '../support/tmp.js';

/** Charts with a problem of each kind reading meets (not UTF-8, a second settings file), a FIFO, and a link. */
function troubled(): string {
  const dir = tempDir();
  generateCharts(dir, 60, 6);
  writeFileSync(
    join(dir, 'chart-000', 'latin1.yaml'),
    Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x3a, 0xe9, 0x0a]),
  );
  execFileSync('mkfifo', [join(dir, 'chart-002', 'fifo.yaml')]);
  writeFileSync(join(dir, 'chart-003', 'chart.yaml'), 'namespace: one\n');
  writeFileSync(join(dir, 'chart-003', 'chart.yml'), 'namespace: two\n');
  const [target] = readdirSync(join(dir, 'chart-004')).filter((f) => f.startsWith('myapp-'));
  symlinkSync(join(dir, 'chart-004', target ?? ''), join(dir, 'chart-005', 'linked.yaml'));
  return dir;
}

/** Waits until the thread has posted `count` readings. */
async function posted(ahead: ReadAhead, count: number): Promise<void> {
  for (let i = 0; i < 500 && ahead.posted < count; i++) await new Promise((r) => setTimeout(r, 20));
}

/**
 * The troubled charts listed twice: once each chart read on this thread (`own`, `inputs`), once to be read ahead
 * (`listed`), with a thread reading them from the first file up.
 */
async function listedTwice() {
  const dir = troubled();
  const own = await listCharts(dir);
  const inputs = own.charts.map((c) => c.read());
  const listed = await listCharts(dir);
  return { own, inputs, listed, ahead: ReadAhead.start(listed.charts, 0) };
}

describe('ReadAhead', () => {
  it("reads each chart on its thread to the input, the problems and the digest of the chart's own reading", async () => {
    const { own, inputs, listed, ahead } = await listedTwice();
    expect(ahead).toBeDefined();
    try {
      await posted(ahead as ReadAhead, READ_AHEAD);
      const taken = listed.charts.map((c, i) => {
        const reading = ahead?.take(i);
        // the charts past the first READ_AHEAD are asked for as each one is taken
        if (i + 1 < listed.charts.length) execFileSync('sleep', ['0.2']);
        return { input: c.read(reading), fromThread: reading !== undefined };
      });
      expect(taken.map((t) => t.fromThread)).toEqual(listed.charts.map(() => true));
      expect(taken.map((t) => t.input)).toEqual(inputs);
      expect(listed.errors()).toEqual(own.errors());
      expect(listed.charts.map((c) => c.digest)).toEqual(own.charts.map((c) => c.digest));
      expect(own.errors().map((e) => e.found)).toEqual([
        expect.stringContaining('UTF-8'),
        'a FIFO',
        expect.stringContaining('a second one beside'),
      ]);
      // the link is read through its real path: the same spec in two charts
      expect(inputs[5]?.specFiles.find((f) => f.relative.endsWith('linked.yaml'))?.text).toContain(
        'kind: Myapp',
      );
    } finally {
      ahead?.close();
    }
  });

  it('never waits for the thread: a chart whose reading is not there is read by the render, the same', async () => {
    const { own, inputs, listed, ahead } = await listedTwice();
    try {
      // taken at once: the thread has not started yet
      const readings = listed.charts.map((_, i) => ahead?.take(i));
      expect(readings[0]).toBeUndefined();
      expect(listed.charts.map((c, i) => c.read(readings[i]))).toEqual(inputs);
      expect(listed.errors()).toEqual(own.errors());
    } finally {
      ahead?.close();
    }
  });

  it(`starts no thread for fewer than ${READ_AHEAD_MIN_FILES} files to read`, async () => {
    const dir = tempDir();
    generateCharts(dir, READ_AHEAD_MIN_FILES - 20, 10);
    expect(ReadAhead.start((await listCharts(dir)).charts)).toBeUndefined();
    generateCharts(dir, READ_AHEAD_MIN_FILES, 10);
    const ahead = ReadAhead.start((await listCharts(dir)).charts);
    expect(ahead).toBeDefined();
    ahead?.close();
  });
});
