import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { workerEnv } from '../../src/util/worker-entry.js';
import { tempDir } from '../support/tmp.js';

/** specforge's worker threads use the compile cache of the thread that starts them (bin/specforge.js turns it on). */

const BUILT = pathToFileURL(resolve(import.meta.dirname, '../../lib/util/worker-entry.js')).href;

describe('workerEnv', () => {
  it("names the directory this thread's compile cache is in, as NODE_COMPILE_CACHE, beside the rest", () => {
    expect(workerEnv('/cache/v24.21.0-x64-678e9aab-0', { A: '1' })).toEqual({
      A: '1',
      NODE_COMPILE_CACHE: '/cache',
    });
  });

  it('leaves the environment as it is when this thread keeps no compile cache', () => {
    const env = { A: '1' };
    expect(workerEnv(undefined, env)).toBe(env);
  });
});

describe('startWorker', () => {
  // module.getCompileCacheDir: Node.js 22.8 and later. The built module (lib/), as the command runs it.
  it.skipIf(typeof nodeModule.getCompileCacheDir !== 'function')(
    "starts a worker thread that keeps its compiled code in this thread's compile cache",
    () => {
      const dir = tempDir();
      const worker = join(dir, 'worker.mjs');
      writeFileSync(
        worker,
        "import { getCompileCacheDir } from 'node:module';\nimport { parentPort } from 'node:worker_threads';\nparentPort.postMessage(String(getCompileCacheDir()));\n",
      );
      const main = join(dir, 'main.mjs');
      writeFileSync(
        main,
        [
          "import { enableCompileCache, getCompileCacheDir } from 'node:module';",
          `const { startWorker } = await import(${JSON.stringify(BUILT)});`,
          `enableCompileCache(${JSON.stringify(join(dir, 'cache'))});`,
          `const w = startWorker({ url: new URL(${JSON.stringify(pathToFileURL(worker).href)}) });`,
          "w.on('message', (m) => { console.log(JSON.stringify({ main: getCompileCacheDir(), worker: m })); });",
        ].join('\n'),
      );
      const env = Object.fromEntries(
        Object.entries(process.env).filter(([k]) => !k.startsWith('NODE_COMPILE_CACHE')),
      );
      const r = spawnSync(process.execPath, [main], { encoding: 'utf8', timeout: 60_000, env });
      expect(r.stderr).toBe('');
      const { main: mainDir, worker: workerDir } = JSON.parse(r.stdout) as { main: string; worker: string };
      expect(mainDir.startsWith(join(dir, 'cache'))).toBe(true);
      expect(workerDir).toBe(mainDir);
    },
  );
});
