import { parentPort, workerData } from 'node:worker_threads';
import { digestOfHeld } from './dist-writer.js';

/**
 * The thread of {@link DistDigestBeside} (src/output/dist-digest-beside.ts): the digest of one output directory,
 * whose lock the starting thread holds, posted as `{ digest }`; a failure posts nothing (the caller works it out
 * again and says why).
 */
const { outDir } = workerData as { outDir: string };
try {
  parentPort?.postMessage({ digest: digestOfHeld(outDir) });
} catch {
  // Nothing to post: the caller's own distDigest throws the same failure with its sentence.
}
