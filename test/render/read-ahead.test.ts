/**
 * Charts read ahead on a thread of their own (src/render/read-ahead.ts): the same inputs, problems and digests as
 * each chart read when its turn comes, and a render that never waits for the thread.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { generateCharts } from '../../bench/generate.js';
import { listCharts, loadCharts } from '../../src/render/load-charts.js';
import { READ_AHEAD_FILES, READ_AHEAD_MIN_FILES, ReadAhead } from '../../src/render/read-ahead.js';
import { renderCharts, renderChartsReusing } from '../../src/render/render.js';
import type { ChartSource } from '../../src/render/types.js';
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

/** Gives the thread time to post what it would post. */
async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 300));
}

/** Blocks this thread until `done()` holds or `ms` have passed, as the render's thread would stand in a turn. */
function waitUntil(done: () => boolean, ms: number): void {
  const nap = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  for (const end = Date.now() + ms; !done() && Date.now() < end;) Atomics.wait(nap, 0, 0, 5);
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
  return { dir, own, inputs, listed, ahead: ReadAhead.start(listed.charts, 0) };
}

describe('ReadAhead', () => {
  it("reads each chart on its thread to the input, the problems and the digest of the chart's own reading", async () => {
    const { dir, own, inputs, listed, ahead } = await listedTwice();
    expect(ahead).toBeDefined();
    try {
      const taken = [];
      for (const [i, c] of listed.charts.entries()) {
        // chart i was asked for when chart i - 1 was taken (the first READ_AHEAD when the thread started)
        await posted(ahead as ReadAhead, i);
        const reading = ahead?.take(i);
        taken.push({ input: c.read(reading), fromThread: reading !== undefined });
      }
      // the first chart is the render's at once: never asked for
      expect(taken.map((t) => t.fromThread)).toEqual(listed.charts.map((_, i) => i > 0));
      expect(taken.map((t) => t.input)).toEqual(inputs);
      expect(listed.errors()).toEqual(own.errors());
      expect(listed.charts.map((c) => c.digest)).toEqual(own.charts.map((c) => c.digest));
      expect(own.errors().map((e) => e.found)).toEqual([
        expect.stringContaining('UTF-8'),
        'a FIFO',
        expect.stringContaining('a second one beside'),
      ]);
      // a chart read on the thread, built again, is held to that reading: the same files, or a problem
      expect(listed.charts[1]?.readAgain()).toEqual(inputs[1]);
      const [file] = readdirSync(join(dir, 'chart-001')).filter((f) => f.endsWith('.yaml'));
      appendFileSync(join(dir, 'chart-001', file ?? ''), '# changed\n');
      expect(listed.charts[1]?.readAgain()).toMatchObject({
        found: 'files that changed after the render read them',
      });
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

  it('reads nothing past a chart with a module before its turn has passed: its module may write files', async () => {
    const dir = tempDir();
    generateCharts(dir, 50, 5);
    const charts: ChartSource[] = [...(await listCharts(dir)).charts];
    // chart 2 has a module (as a listing holds it: its default export)
    charts[2] = Object.assign(Object.create(charts[2] as object) as ChartSource, { module: () => undefined });
    const ahead = ReadAhead.start(charts, 0) as ReadAhead;
    try {
      await posted(ahead, 1);
      await settle();
      expect(ahead.posted).toBe(1);
      expect(ahead.take(0)).toBeUndefined();
      expect(ahead.take(1)).toBeDefined();
      expect(ahead.take(2)).toBeUndefined();
      await settle();
      // chart 3's turn came with nothing read ahead: the module's turn has just passed
      expect(ahead.posted).toBe(1);
      expect(ahead.take(3)).toBeUndefined();
      await posted(ahead, 2);
      expect(ahead.take(4)).toBeDefined();
    } finally {
      ahead.close();
    }
  });

  it(`asks for no more than ${READ_AHEAD_FILES} files not yet taken, but always for the next chart`, async () => {
    const dir = tempDir();
    generateCharts(dir, 40, 4);
    // charts that say they have more files than they do: what the thread is asked for goes by what they say
    const charts = (await listCharts(dir)).charts.map((c, i) =>
      Object.assign(Object.create(c) as ChartSource, { fileCount: i === 3 ? 10 : READ_AHEAD_FILES - 500 }),
    );
    const ahead = ReadAhead.start(charts, 0) as ReadAhead;
    try {
      await posted(ahead, 1);
      await settle();
      // chart 1 (the next) only: chart 2 would take the files asked for past the limit
      expect(ahead.posted).toBe(1);
      ahead.take(0);
      expect(ahead.take(1)).toBeDefined();
      // chart 1 taken: chart 2 is the next, and chart 3 fits beside it
      await posted(ahead, 3);
      expect(ahead.take(2)).toBeDefined();
      expect(ahead.take(3)).toBeDefined();
    } finally {
      ahead.close();
    }
  });

  it('is what a render of 1,000 spec files takes its charts from, with the same output as without it', async () => {
    const dir = tempDir();
    generateCharts(dir, READ_AHEAD_MIN_FILES, 10);
    const original = ReadAhead.prototype.take;
    // The render never waits for the thread, so on a loaded machine it could read all ten charts itself before the
    // thread posts one: the next chart's turn waits (up to 30 s) for the thread's first reading, leaving timing
    // out of what this test asserts.
    const take = vi.spyOn(ReadAhead.prototype, 'take').mockImplementation(function (
      this: ReadAhead,
      i: number,
    ) {
      if (i === 1) waitUntil(() => this.posted >= 1, 30_000);
      return original.call(this, i);
    });
    try {
      const listed = await listCharts(dir);
      const ahead = await renderChartsReusing(listed.charts, {});
      const fromThread = take.mock.results.filter((r) => r.value !== undefined).length;
      expect(take).toHaveBeenCalledTimes(10);
      expect(fromThread).toBeGreaterThan(0);
      const read = await loadCharts(dir);
      expect(ahead).toEqual(await renderCharts(read.inputs, {}));
    } finally {
      take.mockRestore();
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
