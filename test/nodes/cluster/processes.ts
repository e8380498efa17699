/** The cluster's long-running programs: started in sessions of their own, stopped by process group. */
import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';

export interface Running {
  readonly name: string;
  readonly proc: ChildProcess;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to each group at once, SIGKILL after `graceMs` to what is left. */
export async function stopAll(pids: readonly number[], graceMs = 10_000): Promise<void> {
  for (const pid of pids) {
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        /* gone */
      }
    }
  }
  const deadline = Date.now() + graceMs;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  for (const pid of pids.filter(alive)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* gone */
    }
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

/** PIDs of processes whose command line contains `needle` (containerd shims, which leave containerd's group). */
export function pidsMatching(needle: string): number[] {
  const r = spawnSync('pgrep', ['-f', needle], { encoding: 'utf8' });
  return (r.stdout ?? '')
    .split('\n')
    .map((l) => Number(l))
    .filter((n) => Number.isInteger(n) && n > 0 && n !== process.pid);
}

export async function waitUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  watch?: Running,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (watch !== undefined && watch.proc.exitCode !== null)
      throw new Error(`${watch.name} exited with code ${watch.proc.exitCode} before ${what}`);
    try {
      if (await check()) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
