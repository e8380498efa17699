import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from './tmp.js';

const BIN = join(resolve(import.meta.dirname, '../..'), 'bin/specforge.js');

/**
 * What a fresh `specforge` command loads, recorded by a module hook: the start-up cost is the modules loaded and
 * the schemas compiled before the first file is read (docs/benchmarks.md, start-up), so tests name them.
 */
export function modulesLoadedBy(args: readonly string[]): {
  status: number | null;
  stdout: string;
  stderr: string;
  urls: string[];
} {
  const dir = tempDir();
  const record = join(dir, 'loaded.txt');
  const hook = join(dir, 'hook.mjs');
  writeFileSync(
    hook,
    `import { registerHooks } from 'node:module';\nimport { writeFileSync } from 'node:fs';\nconst seen = [];\n` +
      `registerHooks({ load(url, context, next) { seen.push(url); return next(url, context); } });\n` +
      `process.on('exit', () => writeFileSync(${JSON.stringify(record)}, seen.join('\\n')));\n`,
  );
  const r = spawnSync(process.execPath, ['--import', hook, BIN, ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return {
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    urls: readFileSync(record, 'utf8').split('\n'),
  };
}
