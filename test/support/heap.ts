import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * The heap `work` leaves in use once garbage is collected, in bytes: what its results, or a memo it filled, keep
 * alive. Collected twice after it, since one collection may leave what a weak reference held until the next.
 */
export function heapKeptBy(work: () => void): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  work();
  gc();
  gc();
  return process.memoryUsage().heapUsed - before;
}
