/**
 * A worker of the chart pool (src/render/chart-pool.ts): renders the charts of spec files it is sent, one message
 * each, and posts each checked chart back as plain data: emitted (its files and skeletons, src/render/emit.ts) when
 * asked, so that its YAML is written here, else its objects. No user code runs here (chart modules render elsewhere).
 */
import { parentPort } from 'node:worker_threads';
import { renderSpecChart } from './render.js';
import { toWire } from './chart-wire.js';
import { emitChart } from './emit.js';
import type { SpecChartInput } from './types.js';

parentPort?.on('message', ({ id, input, emit }: { id: number; input: SpecChartInput; emit: boolean }) => {
  try {
    const part = renderSpecChart(input);
    if (!emit) return parentPort?.postMessage({ id, chart: toWire(part) });
    const { errors, emitted } = emitChart(part);
    parentPort?.postMessage({ id, emitted: { errors, emitted } });
  } catch (e) {
    parentPort?.postMessage({ id, failed: e instanceof Error ? e.message : String(e) });
  }
});
