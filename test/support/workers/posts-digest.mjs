// A dist-digest thread that posts a digest of its own, to show the caller takes the thread's answer.
import { parentPort } from 'node:worker_threads';

parentPort.postMessage({ digest: 'from the thread' });
