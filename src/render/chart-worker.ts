/**
 * A worker of the chart pool (src/render/chart-pool.ts): renders the charts of spec files it is sent, one message
 * each, and posts each checked chart back as plain data: emitted (its files and skeletons, src/render/emit.ts) when
 * asked, so that its YAML is written here, else its objects. No user code runs here (chart modules render elsewhere).
 */
import { parentPort } from 'node:worker_threads';
import { renderSpecChart } from './render.js';
import { toWire } from './chart-wire.js';
import type { CheckedChart } from './chart/check-chart.js';
import { emitChart, type EmittedChart } from './emit.js';
import type { WorkerReply } from './chart-pool.js';
import type { ChartInput } from './chart/chart-input.js';

parentPort?.on('message', ({ id, input, emit }: { id: number; input: ChartInput; emit: boolean }) => {
  try {
    const part = renderSpecChart(input);
    const emitted = emit ? emittedOrNot(part) : undefined;
    post(
      emitted === undefined
        ? { kind: 'checked', id, chart: toWire(part) }
        : { kind: 'emitted', id, emitted: { errors: emitted.errors, emitted: emitted.emitted } },
    );
  } catch (e) {
    post({ kind: 'failed', id, failed: e instanceof Error ? e.message : String(e) });
  }
});

/**
 * The chart emitted, or undefined when its YAML cannot be written: then its objects go, and the main thread meets
 * the same error where `--jobs 1` would (not at all once an earlier chart had an error).
 */
function emittedOrNot(part: CheckedChart): EmittedChart | undefined {
  try {
    return emitChart(part);
  } catch {
    return undefined;
  }
}

function post(reply: WorkerReply): void {
  parentPort?.postMessage(reply);
}
