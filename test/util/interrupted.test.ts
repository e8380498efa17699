/**
 * A render stopped by SIGINT, SIGTERM or SIGHUP (src/util/interrupted.ts) leaves neither dist/'s lock nor the
 * sibling it was writing, and dist/ as it was; it ends with the shell's code for the signal. The command as built
 * (bin/specforge.js, which may start itself again in the same process), in a process of its own.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCharts } from '../../bench/generate.js';
import { digestLines } from '../support/output-digests.js';
import { tempDir } from '../support/tmp.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'specforge.js');

/** The lock and the sibling directories a render leaves beside `out`. */
function leftBeside(out: string): string[] {
  return readdirSync(dirname(out)).filter((e) => e.startsWith(`${basename(out)}.specforge-`));
}

/**
 * Renders `charts` into `out` with the built command, sends `signal` once the render holds the lock and has begun
 * writing the sibling, and resolves with the exit code (or the signal that ended it).
 */
function renderStopped(charts: string, out: string, signal: NodeJS.Signals) {
  const child = spawn(process.execPath, [BIN, 'render', charts, '--out', out, '--jobs', '1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const ended = new Promise<{ code: number | null; signal: string | null; stderr: string; sent: boolean }>(
    (resolve) => {
      let sent = false;
      const watch = setInterval(() => {
        const left = leftBeside(out);
        if (sent || !left.includes(`${basename(out)}.specforge-lock`)) return;
        if (!left.some((e) => e.startsWith(`${basename(out)}.specforge-tmp-`))) return;
        sent = child.kill(signal);
      }, 5);
      const limit = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('exit', (code, sig) => {
        clearInterval(watch);
        clearTimeout(limit);
        resolve({ code, signal: sig, stderr, sent });
      });
    },
  );
  return ended;
}

describe('a render stopped by a signal', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)(
    'removes the lock and the sibling it was writing on %s, leaves dist/ as it was, and exits 128 + the signal',
    async (signal) => {
      const root = tempDir();
      const charts = join(root, 'charts');
      const out = join(root, 'dist');
      generateCharts(charts, 20, 2);
      const first = spawnSync(process.execPath, [BIN, 'render', charts, '--out', out], { encoding: 'utf8' });
      expect(first.status, first.stderr).toBe(0);
      const before = digestLines(out);
      // chart-000 renders differently (its files go to the sibling), then chart-001's module waits for good
      const spec = join(charts, 'chart-000', readdirSync(join(charts, 'chart-000')).sort()[0] as string);
      writeFileSync(spec, readFileSync(spec, 'utf8').replace(/replicas: \d+/, 'replicas: 9'));
      writeFileSync(
        join(charts, 'chart-001', 'chart.mjs'),
        'export default () => new Promise(() => setInterval(() => {}, 1000));\n',
      );
      const r = await renderStopped(charts, out, signal);
      expect(r.sent, r.stderr).toBe(true);
      expect({ code: r.code, signal: r.signal }, r.stderr).toEqual({
        code: 128 + constants.signals[signal],
        signal: null,
      });
      expect(leftBeside(out)).toEqual([]);
      expect(digestLines(out)).toBe(before);
    },
  );

  it('is stopped while it renders many charts of spec files on the main thread, not once it is done', async () => {
    const root = tempDir();
    const charts = join(root, 'charts');
    const out = join(root, 'dist');
    generateCharts(charts, 4_000, 40);
    expect(existsSync(out)).toBe(false);
    const r = await renderStopped(charts, out, 'SIGTERM');
    expect(r.sent, r.stderr).toBe(true);
    expect(r.code, r.stderr).toBe(128 + constants.signals.SIGTERM);
    expect(leftBeside(out)).toEqual([]);
    expect(existsSync(out)).toBe(false);
  });
});

describe('the undoing of what a run holds on a signal', () => {
  it('is left to a program that listens to the signal itself, before or after specforge held something', () => {
    const lib = join(import.meta.dirname, '..', '..', 'lib', 'util', 'interrupted.js');
    for (const order of ['before', 'after']) {
      const script = `
        const { undoOnSignal } = await import(${JSON.stringify(lib)});
        const own = () => console.log('own handler');
        if (${JSON.stringify(order)} === 'before') process.on('SIGTERM', own);
        undoOnSignal(() => console.log('undone'));
        if (${JSON.stringify(order)} === 'after') process.on('SIGTERM', own);
        process.kill(process.pid, 'SIGTERM');
        setTimeout(() => console.log('still running'), 200);
      `;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
      expect({ status: r.status, out: r.stdout }, order).toEqual({
        status: 0,
        out: 'own handler\nstill running\n',
      });
    }
  });
});

describe('a run holding temporary directories and dist/ at once', () => {
  it('removes both on a signal, whichever it took first, and exits 128 + the signal', () => {
    const lib = join(import.meta.dirname, '..', '..', 'lib');
    for (const first of ['temp', 'lock']) {
      const root = tempDir();
      const script = `
        const { makeTempDir } = await import(${JSON.stringify(join(lib, 'util', 'temp-dirs.js'))});
        const { lock } = await import(${JSON.stringify(join(lib, 'output', 'dist-lock.js'))});
        const take = { temp: () => console.log(makeTempDir('specforge-interrupted-')), lock: () => lock(${JSON.stringify(join(root, 'dist'))}, {}) };
        const order = ${JSON.stringify(first)} === 'temp' ? ['temp', 'lock'] : ['lock', 'temp'];
        for (const what of order) take[what]();
        process.kill(process.pid, 'SIGTERM');
        setTimeout(() => console.log('still running'), 1000);
      `;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
      expect(r.status, `${first}: ${r.stderr}`).toBe(128 + constants.signals.SIGTERM);
      const temp = r.stdout.trim();
      expect(temp, first).toMatch(/specforge-interrupted-/);
      expect(existsSync(temp), first).toBe(false);
      expect(readdirSync(root), first).toEqual([]);
    }
  });
});

describe('the handlers of the signals', () => {
  const lib = join(import.meta.dirname, '..', '..', 'lib', 'util', 'interrupted.js');
  const runScript = (body: string) =>
    spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { undoOnSignal } = await import(${JSON.stringify(lib)});\n${body}`,
      ],
      { encoding: 'utf8' },
    );

  it('go a turn of the event loop after nothing is held, so a later synchronous wait is stopped as by default', () => {
    const r = runScript(`
      const forget = undoOnSignal(() => {});
      const counts = [process.listenerCount('SIGINT')];
      forget();
      counts.push(process.listenerCount('SIGINT'));
      setImmediate(() => setImmediate(() => console.log([...counts, process.listenerCount('SIGINT')].join(' '))));
    `);
    expect(r.stdout).toBe('1 1 0\n');
  });

  it('handle a signal caught while the thread was busy, though what was held was let go meanwhile', () => {
    const r = runScript(`
      const forget = undoOnSignal(() => console.log('undone'));
      process.kill(process.pid, 'SIGTERM');
      for (const end = Date.now() + 100; Date.now() < end; );
      forget();
      setTimeout(() => console.log('still running'), 500);
    `);
    expect({ status: r.status, out: r.stdout }).toEqual({ status: 128 + constants.signals.SIGTERM, out: '' });
  });

  it('handle a signal caught while the thread was busy in an I/O callback that let go of what was held', () => {
    const r = runScript(`
      const { readFile } = await import('node:fs');
      const forget = undoOnSignal(() => console.log('undone'));
      readFile(${JSON.stringify(lib)}, () => {
        process.kill(process.pid, 'SIGINT');
        for (const end = Date.now() + 50; Date.now() < end; );
        forget();
        setTimeout(() => console.log('still running'), 500);
      });
    `);
    expect({ status: r.status, out: r.stdout }).toEqual({ status: 128 + constants.signals.SIGINT, out: '' });
  });
});
