/**
 * The thread of a {@link ReadAhead} (src/render/read-ahead.ts): reads the charts it is asked for, in order, and
 * posts each reading on `readings`, counting it in the shared counters. A chart the render has taken already (it
 * read the chart itself) is not read, or, when the render took it meanwhile, not posted: the render would only
 * drop it.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { readChartFiles } from './chart-reading.js';
import { chartInputDigest } from './input-digest.js';
import { ListedFiles } from './listed-files.js';
import { POSTED, TAKEN, type AheadReply, type AheadRequest } from './read-ahead-protocol.js';

const { counts, readings } = workerData as { counts: Int32Array; readings: MessagePort };

parentPort?.on('message', ({ id, name, dir, files }: AheadRequest) => {
  if (id < Atomics.load(counts, TAKEN)) return;
  let reply: AheadReply;
  try {
    const reading = readChartFiles(name, dir, ListedFiles.unpackPlain(files));
    reply = { id, reading, digest: chartInputDigest(reading.input) };
  } catch (e) {
    reply = { id, failed: e instanceof Error ? e.message : String(e) };
  }
  if (id < Atomics.load(counts, TAKEN)) return;
  readings.postMessage(reply);
  Atomics.add(counts, POSTED, 1);
  Atomics.notify(counts, POSTED);
});
