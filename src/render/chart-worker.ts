/**
 * A worker of the chart pool (src/render/chart-pool.ts): renders the charts of spec files it is sent, one message
 * each, and posts each checked chart back as plain data. No user code runs here (chart modules render elsewhere).
 */
import { parentPort } from 'node:worker_threads';
import { renderSpecChart } from './render.js';
import { toWire } from './chart-wire.js';
import type { SpecChartInput } from './types.js';

parentPort?.on('message', ({ id, input }: { id: number; input: SpecChartInput }) => {
  try {
    parentPort?.postMessage({ id, chart: toWire(renderSpecChart(input)) });
  } catch (e) {
    parentPort?.postMessage({ id, failed: e instanceof Error ? e.message : String(e) });
  }
});
