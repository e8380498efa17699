// A file-writer thread that takes up the work and never writes (src/output/file-writer.ts must fail, not hang).
import { workerData } from 'node:worker_threads';

Atomics.store(workerData.counts, 1, 1);
setInterval(() => undefined, 1000);
