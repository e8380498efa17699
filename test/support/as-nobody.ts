import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/** `specforge <args>` as the unprivileged user nobody (setpriv, as root), for places root could read or write anyway. */
export function asNobody(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(
    'setpriv',
    [
      '--reuid=65534',
      '--regid=65534',
      '--clear-groups',
      process.execPath,
      join(ROOT, 'bin/specforge.js'),
      ...args,
    ],
    { encoding: 'utf8' },
  );
}
